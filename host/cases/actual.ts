import type { FailureCode } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome } from '../contract/outcome.js';

/**
 * What a hook did with one call, in the terms a case's `expect` uses: its decision (with the reason,
 * the input it ran with after a modify, the output and error flag after a replace), or its failure.
 */
export type Actual =
  | { readonly failure: FailureCode; readonly message: string }
  | { readonly decision: 'allow' }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'modify'; readonly input: JsonValue; readonly reason?: string }
  | { readonly decision: 'replace'; readonly output: JsonValue; readonly is_error: boolean; readonly reason?: string };

/**
 * Read a hook's answer from the outcome of a runner holding that one hook: its trail entry says what it
 * decided or how it failed; the outcome carries the rewritten input or output. `undefined` when the
 * hook did not run (its tool matcher did not select the call).
 */
export function actualOf(outcome: Outcome, hook: string): Actual | undefined {
  const entry = outcome.trail.find((e) => e.hook === hook);
  if (entry === undefined) return undefined;
  if (entry.failure !== undefined) return { failure: entry.failure.code, message: entry.failure.message };
  const reason = entry.reason === undefined ? {} : { reason: entry.reason };
  switch (entry.decision) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      return { decision: 'deny', reason: entry.reason ?? '' };
    case 'modify':
      return { decision: 'modify', input: outcome.event === 'pre_tool_use' && outcome.decision === 'allow' ? outcome.input : null, ...reason };
    case 'replace':
      return outcome.event === 'post_tool_use'
        ? { decision: 'replace', output: outcome.output, is_error: outcome.is_error, ...reason }
        : { decision: 'replace', output: null, is_error: false, ...reason };
  }
}
