import { HookCall } from '../contract/call.js';
import { fastHookCall } from '../contract/fast/call.js';
import type { HookEvent } from '../contract/event.js';
import type { JsonValue } from '../contract/json.js';
import { describeIssues, formatIssues } from '../contract/issues.js';
import { readToolInput } from '../codec/input.js';
import { RunnerError } from '../errors/runner-error.js';

/** A call the chain can run: validated (a fresh copy of what the caller passed) and its input parsed. */
export interface ValidCall {
  readonly call: HookCall;
  /** The input after the parse rule (raw text that is JSON → its value). */
  readonly input: JsonValue;
}

/**
 * Validate what a caller handed the runner, whatever it is, and throw `RunnerError('invalid_call')`
 * naming the path for anything that is not a contract call: a missing or mistyped field, a value that
 * is not JSON (BigInt, a function, `undefined` in an array, a Date, a circular structure), a tool
 * value beyond {@link JSON_LIMITS}. Nothing the caller passes makes this throw anything else — not a
 * getter that throws, not a Proxy — and nothing the caller does later (mutating its object) reaches
 * the chain: it runs on the copy.
 *
 * `event`, when given, is imposed on the call (`pre()` and `post()` name their event themselves).
 */
export function validateCall(call: unknown, event?: HookEvent): ValidCall {
  let candidate: unknown = call;
  let result: ReturnType<typeof HookCall.safeParse> | undefined;
  try {
    // The fast path first (zod stays the arbiter: whatever it does not take, zod decides and words).
    const fast = fastHookCall(call, event);
    if (fast !== undefined) result = { success: true, data: fast };
    else {
      if (event !== undefined) candidate = { ...(call as object), event };
      result = HookCall.safeParse(candidate);
    }
  } catch (error) {
    // Both read the caller's object: a getter or Proxy trap may throw while they do.
    const what = error instanceof Error ? error.name : typeof error;
    throw new RunnerError('invalid_call', `invalid call: it could not be read (reading it threw ${what})`, { cause: error });
  }
  if (!result.success) {
    throw new RunnerError('invalid_call', `invalid call: ${formatIssues(describeIssues(result.error, candidate))}`, { cause: result.error });
  }
  return withInput(result.data);
}

function withInput(call: HookCall): ValidCall {
  const input = readToolInput(call.input);
  if (!input.ok) throw new RunnerError('invalid_call', `invalid call: ${input.message}`);
  return { call, input: input.value };
}
