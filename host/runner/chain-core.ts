/**
 * The chain's rules for one hook — what a transport's answer comes to, and what it does to the chain's
 * state — as plain functions over plain data. {@link HookRunner} applies them hook by hook; a segment
 * of hooks run in one hop where they live (a worker holding several components: runner/hop.ts) is
 * judged and applied by these same functions there, so the chain's rules have one implementation
 * wherever they run. Imports nothing but the contract and the codec.
 */
import type { HookCall } from '../contract/call.js';
import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy, HookFailure } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { TrailEntry } from '../contract/outcome.js';
import type { HookRequest } from '../contract/request.js';
import type { HookResponse } from '../contract/response.js';
import { requestText, toRequest, type ChainState, type RequestText } from '../codec/request.js';
import { checkDecisionForEvent } from './check-decision.js';
import { failureReason } from './failure-reason.js';
import { checkInvokeResult } from './invoke-result.js';
import type { RunOptions } from './options.js';
import type { HookLogs } from './transport.js';

/** What the rules need to know of a hook. */
export interface HookRule {
  readonly name: string;
  readonly policy: FailurePolicy;
}

/** What one hook did to the chain, once its policy is applied. */
export type Step =
  | { readonly kind: 'continue'; readonly response: HookResponse | undefined }
  | { readonly kind: 'deny'; readonly reason: string };

/** One hook's evaluation: its trail entry, and what it means for the chain (ignored for a shadow). */
export interface Evaluated {
  readonly entry: TrailEntry;
  readonly step: Step;
  /** Fuel the guest spent, when telemetry is recording and the transport says (runner/hook-telemetry.ts). */
  fuel?: number;
}

/** Put the hook's captured output and the budget on its trail entry. */
export function addNotes(entry: TrailEntry, logs: HookLogs | undefined, budget: TrailEntry['budget']): void {
  if (logs?.stderr) entry.stderr = logs.stderr;
  if (logs?.stdout) entry.stdout = logs.stdout;
  if (budget !== undefined) entry.budget = budget;
}

/** A hook that answered within the contract: its trail entry and what it means for the chain. */
export function answered(hook: HookRule, response: HookResponse, logs: HookLogs | undefined, ms: number, budgetNote: TrailEntry['budget']): Evaluated {
  const name = hook.name;
  const entry: TrailEntry =
    response.decision === 'allow' || response.reason === undefined ? { hook: name, decision: response.decision, ms } : { hook: name, decision: response.decision, reason: response.reason, ms };
  addNotes(entry, logs, budgetNote);
  if (response.decision === 'deny') return { entry, step: { kind: 'deny', reason: response.reason } };
  return { entry, step: { kind: 'continue', response } };
}

/** A failed hook's entry and step, under its `on_failure` policy. */
export function failed(hook: HookRule, failure: HookFailure, logs: HookLogs | undefined, ms: number, event: HookEvent, budget: TrailEntry['budget']): Evaluated {
  const name = hook.name;
  const entry: TrailEntry = { hook: name, decision: hook.policy, failure, policy: hook.policy, ms };
  addNotes(entry, logs, budget);
  if (hook.policy === 'allow') return { entry, step: { kind: 'continue', response: undefined } };
  return { entry, step: { kind: 'deny', reason: failureReason(name, failure.code, event) } };
}

/** What a judgement may take into account besides the answer. */
export interface JudgeContext {
  /** The budget note for the trail entry (when the event has a budget). */
  readonly budgetNote?: TrailEntry['budget'] | undefined;
  /** When the budget cut the hook's time short: the budget and what it left (a timeout then says so). */
  readonly budget?: { readonly budgetMs: number; readonly leftMs: number } | undefined;
  /** The caller's check of a rewritten input ({@link RunOptions.checkInput}). */
  readonly checkInput?: RunOptions['checkInput'];
}

/**
 * What a hook's answer (or failure) comes to, under the contract, the event and its policy.
 * Synchronous unless a `checkInput` answers with a promise.
 */
export function judge(hook: HookRule, kind: string, result: unknown, ms: number, event: HookEvent, context: JudgeContext = {}): Evaluated | Promise<Evaluated> {
  const budgetNote = context.budgetNote;
  // Re-check at the boundary: a transport (or an interceptor) may hand back anything at run time.
  const checked = checkInvokeResult(result, kind);
  if (!checked.ok) {
    const { failure } = checked;
    const budget = context.budget;
    if (failure.code === 'timeout' && budget !== undefined) {
      // Say why the hook had so little time: the budget, not (only) its own timeout, cut it short.
      const message = `${failure.message} (the chain's ${budget.budgetMs} ms budget left it ${budget.leftMs} ms)`;
      return failed(hook, { code: failure.code, message }, checked.logs, ms, event, budgetNote);
    }
    return failed(hook, failure, checked.logs, ms, event, budgetNote);
  }
  const response = checked.response;
  const wrong = checkDecisionForEvent(response, event);
  if (wrong !== undefined) return failed(hook, wrong, checked.logs, ms, event, budgetNote);
  const check = context.checkInput;
  if (response.decision === 'modify' && check !== undefined) {
    const problem = checkModifiedInput(check, response.input);
    if (problem instanceof Promise) {
      return problem.then((failure) => (failure === undefined ? answered(hook, response, checked.logs, ms, budgetNote) : failed(hook, failure, checked.logs, ms, event, budgetNote)));
    }
    if (problem !== undefined) return failed(hook, problem, checked.logs, ms, event, budgetNote);
  }
  return answered(hook, response, checked.logs, ms, budgetNote);
}

/** A rewrite the tool would not accept is the hook's failure; a checker that throws is ours (still fails closed). */
function checkModifiedInput(check: NonNullable<RunOptions['checkInput']>, input: JsonValue): HookFailure | undefined | Promise<HookFailure | undefined> {
  let problem: string | undefined | Promise<string | undefined>;
  try {
    problem = check(input);
  } catch (error) {
    return checkerThrew(error);
  }
  if (problem instanceof Promise) return problem.then(problemFailure, checkerThrew);
  return problemFailure(problem);
}

function checkerThrew(error: unknown): HookFailure {
  return { code: 'internal_error', message: `checking the rewritten input threw: ${String(error)}` };
}

function problemFailure(problem: string | undefined): HookFailure | undefined {
  if (problem === undefined) return undefined;
  return { code: 'malformed_response', message: `"modify" rewrote the input to something the tool does not accept: ${problem}` };
}

/**
 * One chain state as hooks see it: the request, made once and handed to every hook that sees this
 * state (transports never change it: an interceptor gets its own copy), and its JSON text, made at
 * most once, when a transport first reads it.
 */
export interface StateView {
  readonly request: HookRequest;
  readonly text: RequestText;
}

export function viewOf(call: HookCall, state: ChainState): StateView {
  const request = toRequest(call, state);
  return { request, text: requestText(request) };
}

/** Where a `pre_tool_use` chain stands: the input as rewritten so far, and its view (made when a hook needs it). */
export interface PreState {
  input: JsonValue;
  modified: boolean;
  view: StateView | undefined;
}

/** Where a `post_tool_use` chain stands: the output (and error flag) as replaced so far. */
export interface PostState {
  readonly input: JsonValue;
  output: JsonValue;
  isError: boolean;
  replaced: boolean;
  view: StateView | undefined;
}

/** The view of a `pre_tool_use` state (made once per state). */
export function preView(call: HookCall, at: PreState): StateView {
  return (at.view ??= viewOf(call, { event: 'pre_tool_use', input: at.input }));
}

/** The view of a `post_tool_use` state (made once per state). */
export function postView(call: HookCall, at: PostState): StateView {
  return (at.view ??= viewOf(call, { event: 'post_tool_use', input: at.input, output: at.output, is_error: at.isError }));
}

/** Apply one enforcing hook's step before the call: the deny reason when it ends the chain, else undefined. */
export function stepPre(at: PreState, step: Step): string | undefined {
  if (step.kind === 'deny') return step.reason;
  if (step.response?.decision === 'modify') {
    at.input = step.response.input;
    at.modified = true;
    at.view = undefined;
  }
  return undefined;
}

/** Apply one enforcing hook's step after the call: the deny reason when it ends the chain, else undefined. */
export function stepPost(at: PostState, step: Step): string | undefined {
  if (step.kind === 'deny') return step.reason;
  if (step.response?.decision === 'replace') {
    at.output = step.response.output;
    if (step.response.is_error !== undefined) at.isError = step.response.is_error;
    at.replaced = true;
    at.view = undefined;
  }
  return undefined;
}

export type Rewrite = { input?: JsonValue; output?: JsonValue; is_error?: boolean };

/** The rewrite a modify or replace made (or, for a shadow, proposed). */
export function rewriteOf(step: Step): Rewrite {
  const response = step.kind === 'continue' ? step.response : undefined;
  if (response?.decision === 'modify') return { input: response.input };
  if (response?.decision === 'replace') return response.is_error === undefined ? { output: response.output } : { output: response.output, is_error: response.is_error };
  return {};
}
