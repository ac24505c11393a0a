import type { z } from 'zod';
import { HookCall } from '../call.js';
import { isPlainJson } from './json.js';

/** zod's `safeParse` result, so a fast parse is a drop-in for `HookCall.safeParse`. */
export type SafeParse<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: z.ZodError };

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A {@link HookCall} when `value` is obviously one, else `undefined` (then zod decides). Accepts only
 * a plain object with exactly the call's keys for its event, each of the right type (`tool_call_id`
 * and `tool_name` non-empty), and an input (and output) that {@link isPlainJson} accepts. Returns a
 * fresh literal in zod's key order — like zod's, not the caller's object — whose `input`/`output` are
 * the caller's values, checked but not copied.
 */
export function fastHookCall(value: unknown): HookCall | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { event, workspace, agent_id, tool_call_id, tool_name, input } = value as Record<string, unknown>;
  if (typeof workspace !== 'string' || typeof agent_id !== 'string') return undefined;
  if (typeof tool_call_id !== 'string' || tool_call_id.length === 0) return undefined;
  if (typeof tool_name !== 'string' || tool_name.length === 0) return undefined;
  let keys = 0;
  for (const key in value) {
    if (key === '__proto__') return undefined;
    keys++;
  }
  if (event === 'pre_tool_use') {
    if (keys !== 6 || !isPlainJson(input)) return undefined;
    return { workspace, agent_id, tool_call_id, tool_name, input, event: 'pre_tool_use' };
  }
  if (event === 'post_tool_use') {
    const { output, is_error } = value as Record<string, unknown>;
    if (keys !== 8 || typeof is_error !== 'boolean' || !isPlainJson(input) || !isPlainJson(output)) return undefined;
    return { workspace, agent_id, tool_call_id, tool_name, input, event: 'post_tool_use', output, is_error };
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
