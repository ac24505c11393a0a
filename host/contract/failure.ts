import { z } from 'zod';

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
 * | `timeout` | the hook did not answer within its `timeout_ms` (or ran out of fuel) |
 * | `output_too_large` | the hook's answer exceeded its output cap |
 * | `trap` | a WebAssembly guest trapped (unreachable, out-of-bounds, stack overflow) |
 * | `guest_error` | a WebAssembly guest returned `err(message)` |
 * | `memory_limit` | a WebAssembly guest exhausted its memory cap |
 * | `load_failed` | a WebAssembly component could not be loaded or instantiated, or a pinned hook's file no longer has its `sha256` |
 * | `interceptor_error` | an in-process interceptor threw or returned something that is not a response |
 * | `internal_error` | the transport itself failed unexpectedly (a basis-hooks bug); still fails closed |
 * | `budget_exhausted` | the chain's `budget_ms` for the event was spent before the hook could start |
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
]);
export type FailureCode = z.infer<typeof FailureCode>;

/** A typed failure: which cause, and a message for humans that names it. */
export const HookFailure = z.object({
  code: FailureCode,
  message: z.string(),
});
export type HookFailure = z.infer<typeof HookFailure>;

/** What a hook's failure does to the call: fail closed (`deny`, the default) or fail open (`allow`). */
export const FailurePolicy = z.enum(['deny', 'allow']);
export type FailurePolicy = z.infer<typeof FailurePolicy>;
