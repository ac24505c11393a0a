import type { FailureCode } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome } from '../contract/outcome.js';
import { comparable, meets } from './compare.js';
import type { Expectation } from './schema.js';

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

/** The chain's outcome in the cases' vocabulary. */
export function chainActual(outcome: Outcome): Actual {
  if (outcome.event === 'pre_tool_use') {
    if (outcome.decision === 'deny') return { decision: 'deny', reason: outcome.reason };
    return outcome.modified ? { decision: 'modify', input: outcome.input } : { decision: 'allow' };
  }
  if (outcome.decision === 'deny') return { decision: 'deny', reason: typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output) };
  return outcome.replaced ? { decision: 'replace', output: outcome.output, is_error: outcome.is_error } : { decision: 'allow' };
}

/**
 * Judge a case that names no hook against a whole chain's outcome (`basis-hooks check --cases`, and
 * `basis-hooks test` on a config of several hooks): a decision is compared with the chain's outcome
 * (before the call allow, modify with the final input, or deny with the reason the model is told;
 * after it allow, replace with the final output, or deny); a `failure` expectation needs some hook of
 * the chain to have failed with that code.
 */
export function judgeChain(outcome: Outcome, expected: Expectation): { readonly pass: boolean; readonly actual: Record<string, JsonValue> } {
  if ('failure' in expected) {
    const failed = outcome.trail.find((e) => e.failure?.code === expected.failure);
    const codes = outcome.trail.flatMap((e) => (e.failure === undefined ? [] : [`${e.hook}: ${e.failure.code}`]));
    return failed === undefined ? { pass: false, actual: { failures: codes } } : { pass: true, actual: { failure: expected.failure } };
  }
  const actual = chainActual(outcome);
  return { pass: meets(actual, expected), actual: comparable(actual, expected) };
}
