import type { z } from 'zod';
import { HookCall } from '../call.js';
import type { HookEvent } from '../event.js';
import { copyPlainJson } from './json.js';

/** zod's `safeParse` result, so a fast parse is a drop-in for `HookCall.safeParse`. */
export type SafeParse<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: z.ZodError };

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A {@link HookCall} when `value` is obviously one, else `undefined` (then zod decides). Accepts only
 * a plain object with exactly the call's keys for its event, each of the right type (`tool_call_id`
 * and `tool_name` non-empty), and an input (and output) that {@link copyPlainJson} accepts. Returns a
 * fresh literal in zod's key order — like zod's, not the caller's object — with fresh copies of
 * `input`/`output`, as zod's parse makes them.
 *
 * `event`, when given, is imposed as the runner's `pre()`/`post()` impose theirs (the value may leave
 * its `event` out, or name the same one): the fast twin of parsing `{ ...value, event }`.
 */
export function fastHookCall(value: unknown, event?: HookEvent): HookCall | undefined {
  if (!isPlainRecord(value)) return undefined;
  const record = value as Record<string, unknown>;
  const { workspace, agent_id, tool_call_id, tool_name } = record;
  if (typeof workspace !== 'string' || typeof agent_id !== 'string') return undefined;
  if (typeof tool_call_id !== 'string' || tool_call_id.length === 0) return undefined;
  if (typeof tool_name !== 'string' || tool_name.length === 0) return undefined;
  let keys = 0;
  let hasEvent = false;
  for (const key in record) {
    if (key === '__proto__') return undefined;
    if (key === 'event') hasEvent = true;
    keys++;
  }
  const own = record['event'];
  if (event !== undefined) {
    if (hasEvent && own !== event) return undefined;
    if (!hasEvent) keys++;
  }
  const which = event ?? own;
  if (which === 'pre_tool_use') {
    if (keys !== 6) return undefined;
    const input = copyPlainJson(record['input']);
    if (input === undefined) return undefined;
    return { workspace, agent_id, tool_call_id, tool_name, input, event: 'pre_tool_use' };
  }
  if (which === 'post_tool_use') {
    const isError = record['is_error'];
    if (keys !== 8 || typeof isError !== 'boolean') return undefined;
    const input = copyPlainJson(record['input']);
    if (input === undefined) return undefined;
    const output = copyPlainJson(record['output']);
    if (output === undefined) return undefined;
    return { workspace, agent_id, tool_call_id, tool_name, input, event: 'post_tool_use', output, is_error: isError };
  }
  return undefined;
}

/**
 * `HookCall.safeParse` with the fast path in front: what {@link fastHookCall} accepts is returned at
 * once; everything else goes to zod, which decides and words every error.
 */
export function parseHookCall(value: unknown): SafeParse<HookCall> {
  const fast = fastHookCall(value);
  if (fast !== undefined) return { success: true, data: fast };
  return HookCall.safeParse(value);
}
