import * as z from 'zod';
import { HookCall } from '../contract/call.js';
import { FailureCode } from '../contract/failure.js';
import { JsonValue } from '../contract/json.js';

/**
 * What a case expects of the hook: a decision — with, optionally, the exact reason, rewritten input
 * (modify) or rewritten output and error flag (replace) — or a failure with a given code. Fields left
 * out are not compared: `{"decision":"deny"}` passes for any deny reason.
 */
export const DecisionExpectation = z.discriminatedUnion('decision', [
  z.strictObject({ decision: z.literal('allow') }),
  z.strictObject({ decision: z.literal('deny'), reason: z.string().optional() }),
  z.strictObject({ decision: z.literal('modify'), input: JsonValue.optional(), reason: z.string().optional() }),
  z.strictObject({
    decision: z.literal('replace'),
    output: JsonValue.optional(),
    is_error: z.boolean().optional(),
    reason: z.string().optional(),
  }),
]);
export type DecisionExpectation = z.infer<typeof DecisionExpectation>;

/** The hook must fail with this code (`timeout`, `trap`, `wrong_decision_for_event`, ...). */
export const FailureExpectation = z.strictObject({ failure: FailureCode });
export type FailureExpectation = z.infer<typeof FailureExpectation>;

export const Expectation = z.union([DecisionExpectation, FailureExpectation], {
  error: 'a decision expectation ({"decision": ...}) or a failure expectation ({"failure": "<code>"})',
});
export type Expectation = z.infer<typeof Expectation>;

/**
 * One line of a cases file: a call and what the hook must answer. `hook` (as in
 * guest-examples/policy-cases.jsonl) names the hook the case is for: it selects the hook of a config,
 * and a case for another hook than the one under test is skipped.
 *
 * @example
 * {"name":"rm -rf / is denied","call":{"event":"pre_tool_use","workspace":"/repo","agent_id":"a1",
 *  "tool_call_id":"c1","tool_name":"shell","input":{"command":"rm -rf /"}},"expect":{"decision":"deny"}}
 */
export const TestCase = z.strictObject({
  name: z.string().min(1),
  hook: z.string().min(1).optional(),
  call: HookCall,
  expect: Expectation,
});
export type TestCase = z.infer<typeof TestCase>;
