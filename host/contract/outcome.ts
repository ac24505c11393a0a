import * as z from 'zod';
import { HookDecision } from './response.js';
import { FailurePolicy, HookFailure } from './failure.js';
import { JsonValue } from './json.js';

/** The chain's budget as a hook found it: the event's `budget_ms`, and what was left when the hook started. */
export const TrailBudget = z.strictObject({
  budget_ms: z.number().positive(),
  left_ms: z.number(),
});
export type TrailBudget = z.infer<typeof TrailBudget>;

/**
 * One hook's line in the audit trail. `decision` is what took effect: for a failed hook, the
 * decision its `on_failure` policy imposed (and `policy` says so). `reason` on modify/replace lives
 * here and nowhere the model can see it.
 *
 * A shadow hook's line (`shadow: true`) records what it *would* have done had it enforced — its
 * decision, or its failure with the decision its policy would have imposed — and, for a modify or
 * replace, the rewrite it proposed (`input`, or `output`/`is_error`). None of it took effect.
 */
export const TrailEntry = z.strictObject({
  hook: z.string(),
  decision: HookDecision,
  reason: z.string().optional(),
  failure: HookFailure.optional(),
  policy: FailurePolicy.optional(),
  /** What the hook wrote to stderr (capped), for diagnosis. */
  stderr: z.string().optional(),
  /** What a sandboxed guest wrote to its stdout (capped); never forwarded to the host's stdout. */
  stdout: z.string().optional(),
  /** Wall-clock time the hook took, in milliseconds. */
  ms: z.number().nonnegative(),
  /** Present when the chain has a budget for this event. */
  budget: TrailBudget.optional(),
  /** A shadow hook: observed, never enforced. */
  shadow: z.literal(true).optional(),
  /** Shadow hooks only: the input a `modify` proposed. */
  input: JsonValue.optional(),
  /** Shadow hooks only: the output a `replace` proposed. */
  output: JsonValue.optional(),
  /** Shadow hooks only: the error flag a `replace` proposed (absent: the tool's claim would stand). */
  is_error: z.boolean().optional(),
});
export type TrailEntry = z.infer<typeof TrailEntry>;

const Trail = z.array(TrailEntry);

/** Before the call, allowed: run the tool with `input` (rewritten when `modified`). */
export const PreToolUseAllowed = z.strictObject({
  event: z.literal('pre_tool_use'),
  tool_call_id: z.string(),
  decision: z.literal('allow'),
  input: JsonValue,
  modified: z.boolean(),
  trail: Trail,
});
export type PreToolUseAllowed = z.infer<typeof PreToolUseAllowed>;

/** Before the call, denied: do not run the tool; tell the model `reason`. */
export const PreToolUseDenied = z.strictObject({
  event: z.literal('pre_tool_use'),
  tool_call_id: z.string(),
  decision: z.literal('deny'),
  reason: z.string(),
  trail: Trail,
});
export type PreToolUseDenied = z.infer<typeof PreToolUseDenied>;

/** The chain's verdict before a call. */
export const PreToolUseOutcome = z.discriminatedUnion('decision', [PreToolUseAllowed, PreToolUseDenied]);
export type PreToolUseOutcome = z.infer<typeof PreToolUseOutcome>;

/**
 * The chain's verdict after a call: `output`/`is_error` are what the model sees. On `deny` the output
 * is the reason, marked as an error. `replaced` is true when a hook's `replace` was applied.
 */
export const PostToolUseOutcome = z.strictObject({
  event: z.literal('post_tool_use'),
  tool_call_id: z.string(),
  decision: z.enum(['allow', 'deny']),
  output: JsonValue,
  is_error: z.boolean(),
  replaced: z.boolean(),
  trail: Trail,
});
export type PostToolUseOutcome = z.infer<typeof PostToolUseOutcome>;

/** What {@link HookRunner.run} returns for any call; also one line of `basis-hooks run` output. */
export const Outcome = z.union([PreToolUseOutcome, PostToolUseOutcome]);
export type Outcome = z.infer<typeof Outcome>;
