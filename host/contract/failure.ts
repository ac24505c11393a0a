import * as z from 'zod';

/**
 * Why a hook failed: a closed, stable set. A failed hook has not answered; the chain applies its
 * `on_failure` policy. Codes are added deliberately, never ad hoc — tests and operators match on them.
 *
 * | code | meaning |
 * | --- | --- |
 * | `spawn_failed` | the hook's process could not be started (not found, not executable) |
 * | `exit_nonzero` | the process exited non-zero or was killed by a signal, whatever it printed |
 * | `empty_output` | the hook answered nothing (empty or whitespace-only stdout) |
 * | `malformed_response` | not exactly one JSON object matching the response schema |
 * | `wrong_decision_for_event` | `modify` after the call or `replace` before it |
 * | `timeout` | the hook did not answer within its `timeout_ms` (or ran out of fuel, or a CEL rule spent its cost limit) |
 * | `output_too_large` | the hook's answer exceeded its output cap |
 * | `trap` | a WebAssembly guest trapped (unreachable, out-of-bounds, stack overflow) |
 * | `guest_error` | a WebAssembly guest returned `err(message)` |
 * | `memory_limit` | a WebAssembly guest exhausted its memory cap |
 * | `load_failed` | a WebAssembly component could not be loaded or instantiated, a Cedar or CEL policy is invalid, or a pinned hook's file no longer has its `sha256` |
 * | `interceptor_error` | an in-process interceptor threw or returned something that is not a response |
 * | `internal_error` | the transport itself failed unexpectedly (a basis-hooks bug); still fails closed |
 * | `budget_exhausted` | the chain's `budget_ms` for the event was spent before the hook could start |
 * | `policy_error` | a Cedar or CEL policy could not be evaluated on the call (an evaluation error, a request Cedar refuses), or a hook's `when` could not |
 */
export const FailureCode = z.enum([
  'spawn_failed',
  'exit_nonzero',
  'empty_output',
  'malformed_response',
  'wrong_decision_for_event',
  'timeout',
  'output_too_large',
  'trap',
  'guest_error',
  'memory_limit',
  'load_failed',
  'interceptor_error',
  'internal_error',
  'budget_exhausted',
  'policy_error',
]);
export type FailureCode = z.infer<typeof FailureCode>;

/**
 * The fixed, one-line description of each failure code: what the model is told (with the hook's name
 * and the code) when a hook fails closed. Deliberately says nothing about the particular failure —
 * the message, stderr and stdout go to the trail only.
 */
export const FAILURE_DESCRIPTIONS: Readonly<Record<FailureCode, string>> = {
  spawn_failed: 'the hook could not be started',
  exit_nonzero: 'the hook exited with an error',
  empty_output: 'the hook gave no answer',
  malformed_response: 'the hook answered something that is not a valid answer',
  wrong_decision_for_event: 'the hook answered with a decision that does not apply at this point of the call',
  timeout: 'the hook did not answer in time',
  output_too_large: 'the hook answered more than it may',
  trap: 'the hook crashed',
  guest_error: 'the hook reported an error',
  memory_limit: 'the hook ran out of memory',
  load_failed: 'the hook could not be loaded',
  interceptor_error: 'the hook threw an error',
  internal_error: 'the hook host failed to run the hook',
  budget_exhausted: "the chain's time budget was spent before the hook could run",
  policy_error: "the hook's policy could not be evaluated on this call",
};

/** A typed failure: which cause, and a message for humans that names it. */
export const HookFailure = z.object({
  code: FailureCode,
  message: z.string(),
});
export type HookFailure = z.infer<typeof HookFailure>;

/** What a hook's failure does to the call: fail closed (`deny`, the default) or fail open (`allow`). */
export const FailurePolicy = z.enum(['deny', 'allow']);
export type FailurePolicy = z.infer<typeof FailurePolicy>;
