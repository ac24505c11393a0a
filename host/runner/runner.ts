import { performance } from 'node:perf_hooks';
import type { HookCall, PostToolUseCall, PreToolUseCall } from '../contract/call.js';
import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy, HookFailure } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, PostToolUseOutcome, PreToolUseOutcome, TrailEntry } from '../contract/outcome.js';
import { preview } from '../contract/preview.js';
import type { HookResponse } from '../contract/response.js';
import { toRequest, type ChainState } from '../codec/request.js';
import { isHookError } from '../errors/hook-error.js';
import { RunnerError } from '../errors/runner-error.js';
import { AuditEmitter } from './audit.js';
import { BudgetClock, checkBudget, checkBudgets, type ChainBudgets } from './budget.js';
import { checkDecisionForEvent } from './check-decision.js';
import { failureReason } from './failure-reason.js';
import { checkInvokeResult } from './invoke-result.js';
import { InFlight } from './in-flight.js';
import { validateCall, type ValidCall } from './validate-call.js';
import { validateHooks } from './validate-hooks.js';
import type { HookDefinition } from './hook.js';
import { compileToolMatcher } from './matcher.js';
import type { RunnerOptions, RunOptions } from './options.js';
import { ChainTrail } from './shadow.js';
import type { HookLogs, InvokeContext } from './transport.js';

// Options live in options.ts beside the other chain concepts; re-exported for those importing them from here.
export type { RunOptions, RunnerOptions } from './options.js';

interface CompiledHook {
  readonly definition: HookDefinition;
  readonly matches: (toolName: string) => boolean;
  readonly policy: FailurePolicy;
  readonly shadow: boolean;
}


/** What one hook did to the chain, once its policy is applied. */
type Step =
  | { readonly kind: 'continue'; readonly response: HookResponse | undefined }
  | { readonly kind: 'deny'; readonly reason: string };

/** One hook's evaluation: its trail entry, and what it means for the chain (ignored for a shadow). */
interface Evaluated {
  readonly entry: TrailEntry;
  readonly step: Step;
}

/** What a chain carries from hook to hook besides its state. */
interface Chain {
  readonly call: HookCall;
  readonly trail: ChainTrail;
  readonly budget: BudgetClock | undefined;
  readonly audit: AuditEmitter | undefined;
  readonly started: number;
  readonly options: RunOptions;
}

/**
 * The hook chain. Every rule of the contract's chain lives here, once, identical for every transport:
 *
 * - hooks for an event run **serially** in declared order, filtered by their tool matcher; each sees
 *   the state left by the previous one (the input as rewritten so far; the output as replaced so far);
 * - before the call: `allow` → next, `deny` → stop (call denied), `modify` → input replaced, next;
 * - after the call: `allow` → next, `replace` → output (and `is_error` when given) replaced, next,
 *   `deny` → stop, the model sees the reason in place of the output, marked as an error;
 * - `modify` after or `replace` before the call is a failure (`wrong_decision_for_event`), and so is a
 *   `modify` the tool would not accept, when the caller says what it accepts ({@link RunOptions.checkInput});
 * - a failed hook takes its `on_failure` policy: `deny` (default, fail closed) or `allow` (skip it);
 * - every hook that ran gets a trail entry; `reason` on modify/replace reaches the trail only;
 * - with a budget for the event (`budget_ms`), each hook gets `min(its timeout, what is left)`, and a
 *   hook whose turn comes after the budget is spent fails `budget_exhausted` under its own policy;
 * - a `shadow` hook runs (concurrently, on the state the next enforcing hook sees) and is recorded,
 *   marked `shadow`, but never changes the outcome, and its failures never deny (see {@link ChainTrail});
 * - with an audit sink, the chain emits `chain_started`, one `hook_decided` per hook, `chain_decided`.
 *
 * @example
 * const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport }]);
 * const outcome = await runner.pre({ event: 'pre_tool_use', workspace: '/repo', agent_id: 'a1',
 *   tool_call_id: 'c1', tool_name: 'shell', input: '{"command":"git push --force"}' });
 * if (outcome.decision === 'deny') tellModel(outcome.reason);
 */
export class HookRunner {
  readonly #hooks: readonly CompiledHook[];
  readonly #budgets: ChainBudgets | undefined;
  readonly #audit: AuditEmitter | undefined;
  /** Shadow hooks still running, across calls: {@link idle} and {@link close} wait for them. */
  readonly #inFlight = new Set<Promise<void>>();
  /** Hook invocations in flight: {@link close} settles them at once, whatever their transport does. */
  readonly #pending = new InFlight<unknown>();
  #closed = false;

  constructor(hooks: readonly HookDefinition[], options: RunnerOptions = {}) {
    // validateHooks refuses an invalid `tools` list (naming the hook), so compiling cannot fail here.
    this.#hooks = validateHooks(hooks).map((definition) => ({
      definition,
      matches: compileToolMatcher(definition.tools),
      policy: definition.on_failure ?? 'deny',
      shadow: definition.mode === 'shadow',
    }));
    this.#budgets = checkBudgets(options.budget_ms);
    this.#audit = AuditEmitter.create(options);
  }

  /** The hooks in declared order. */
  get hooks(): readonly HookDefinition[] {
    return this.#hooks.map((h) => h.definition);
  }

  /** Run the chain for a call at whichever event it names. */
  async run(call: HookCall, options: RunOptions = {}): Promise<Outcome> {
    const valid = this.#validate(call);
    return valid.call.event === 'pre_tool_use' ? this.#pre(valid.call, valid.input, options) : this.#post(valid.call, valid.input, options);
  }

  /** Run the `pre_tool_use` chain: may the call run, and with which input? */
  async pre(call: Omit<PreToolUseCall, 'event'> & { event?: 'pre_tool_use' }, options: RunOptions = {}): Promise<PreToolUseOutcome> {
    const valid = this.#validate(call, 'pre_tool_use');
    if (valid.call.event !== 'pre_tool_use') throw new RunnerError('invalid_call', 'pre() needs a pre_tool_use call');
    return this.#pre(valid.call, valid.input, options);
  }

  /** Run the `post_tool_use` chain: what does the model see of the result? */
  async post(call: Omit<PostToolUseCall, 'event'> & { event?: 'post_tool_use' }, options: RunOptions = {}): Promise<PostToolUseOutcome> {
    const valid = this.#validate(call, 'post_tool_use');
    if (valid.call.event !== 'post_tool_use') throw new RunnerError('invalid_call', 'post() needs a post_tool_use call');
    return this.#post(valid.call, valid.input, options);
  }

  /** Resolves once no shadow hook is running (each has answered, failed or timed out). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /**
   * Close every hook's transport (processes, workers, instances); shadow hooks still running are
   * stopped with them (and recorded so); calls still running settle at once, the running hook failing
   * `timeout` (its policy applies, the chain stops at the next hook). Then the audit sinks are closed
   * (a file sink flushes). Later calls are refused.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending.close();
    await Promise.all(this.#hooks.map((h) => h.definition.transport.close?.()));
    await this.idle();
    await this.#audit?.close();
  }

  #validate(call: unknown, event?: HookEvent): ValidCall {
    if (this.#closed) throw new RunnerError('runner_closed', 'the runner is closed');
    return validateCall(call, event);
  }

  #selected(event: HookEvent, toolName: string): CompiledHook[] {
    return this.#hooks.filter((h) => h.definition.event === event && h.matches(toolName));
  }

  async #pre(call: PreToolUseCall, parsedInput: JsonValue, options: RunOptions): Promise<PreToolUseOutcome> {
    let input = parsedInput;
    let modified = false;
    const hooks = this.#selected('pre_tool_use', call.tool_name);
    const chain = this.#begin(call, input, hooks, options);
    for (const hook of hooks) {
      const state: ChainState = { event: 'pre_tool_use', input };
      if (hook.shadow) {
        this.#shadow(hook, state, chain);
        continue;
      }
      const { step } = await this.#enforce(hook, state, chain);
      if (step.kind === 'deny') {
        return this.#end(chain, { event: 'pre_tool_use', tool_call_id: call.tool_call_id, decision: 'deny', reason: step.reason, trail: chain.trail.entries() });
      }
      if (step.response?.decision === 'modify') {
        input = step.response.input;
        modified = true;
      }
    }
    return this.#end(chain, { event: 'pre_tool_use', tool_call_id: call.tool_call_id, decision: 'allow', input, modified, trail: chain.trail.entries() });
  }

  async #post(call: PostToolUseCall, input: JsonValue, options: RunOptions): Promise<PostToolUseOutcome> {
    let output: JsonValue = call.output;
    let isError = call.is_error;
    let replaced = false;
    const hooks = this.#selected('post_tool_use', call.tool_name);
    const chain = this.#begin(call, input, hooks, options);
    for (const hook of hooks) {
      const state: ChainState = { event: 'post_tool_use', input, output, is_error: isError };
      if (hook.shadow) {
        this.#shadow(hook, state, chain);
        continue;
      }
      const { step } = await this.#enforce(hook, state, chain);
      if (step.kind === 'deny') {
        return this.#end(chain, {
          event: 'post_tool_use',
          tool_call_id: call.tool_call_id,
          decision: 'deny',
          output: step.reason,
          is_error: true,
          replaced,
          trail: chain.trail.entries(),
        });
      }
      if (step.response?.decision === 'replace') {
        output = step.response.output;
        if (step.response.is_error !== undefined) isError = step.response.is_error;
        replaced = true;
      }
    }
    return this.#end(chain, { event: 'post_tool_use', tool_call_id: call.tool_call_id, decision: 'allow', output, is_error: isError, replaced, trail: chain.trail.entries() });
  }

  /** Start a chain: its budget clock (when the event has a budget), its trail, its `chain_started`. */
  #begin(call: HookCall, input: JsonValue, hooks: readonly CompiledHook[], options: RunOptions): Chain {
    const started = performance.now();
    const budgetMs = options.budget_ms === undefined ? this.#budgets?.[call.event] : checkBudget('budget_ms', options.budget_ms);
    const budget = budgetMs === undefined ? undefined : new BudgetClock(budgetMs, started);
    const audit = this.#audit;
    audit?.chainStarted(call, input, hooks.map((h) => h.definition.name), budgetMs);
    return { call, trail: new ChainTrail(), budget, audit, started, options };
  }

  /**
   * End a chain: let answered shadows land in the trail, then `chain_decided`. `outcome` is the
   * chain's own fresh object; with shadows its trail is replaced by the settled copy.
   */
  async #end<O extends Outcome>(chain: Chain, outcome: O): Promise<O> {
    if (chain.trail.hasShadows) {
      await chain.trail.settle(chain.options.wait_for_shadows === true);
      outcome.trail = chain.trail.entries();
    }
    chain.audit?.chainDecided(chain.call, outcome, performance.now() - chain.started);
    return outcome;
  }

  /** Run an enforcing hook and record it. */
  async #enforce(hook: CompiledHook, state: ChainState, chain: Chain): Promise<Evaluated> {
    const evaluated = await this.#evaluate(hook, state, chain);
    chain.trail.push(evaluated.entry);
    chain.audit?.hookDecided(chain.call, evaluated.entry, chain.audit.payloads ? rewriteOf(evaluated.step) : undefined);
    return evaluated;
  }

  /** Start a shadow hook on the current state; the chain does not wait for it. */
  #shadow(hook: CompiledHook, state: ChainState, chain: Chain): void {
    const run = this.#evaluate(hook, state, chain).then(
      ({ entry, step }) => ({ ...entry, shadow: true as const, ...rewriteOf(step) }),
      (error: unknown): TrailEntry => ({
        hook: hook.definition.name,
        decision: hook.policy,
        failure: { code: 'internal_error', message: `the runner failed: ${String(error)}` },
        policy: hook.policy,
        ms: 0,
        shadow: true,
      }),
    );
    const landed = chain.trail.shadow(run, (entry) => chain.audit?.hookDecided(chain.call, entry, rewriteFields(entry)));
    this.#inFlight.add(landed);
    void landed.finally(() => this.#inFlight.delete(landed));
  }

  /** Run one hook, check its answer against the contract and the event, apply its failure policy. */
  async #evaluate(hook: CompiledHook, state: ChainState, chain: Chain): Promise<Evaluated> {
    const name = hook.definition.name;
    const { call, budget, options } = chain;
    let context: InvokeContext = options.signal ? { hook: name, signal: options.signal } : { hook: name };
    let budgetNote: TrailEntry['budget'];
    if (budget !== undefined) {
      const left = budget.leftMs();
      budgetNote = BudgetClock.trail(budget.budgetMs, left);
      if (left <= 0) {
        return this.#failed(hook, budget.exhausted(name, state.event, left), undefined, 0, state.event, budgetNote);
      }
      context = { ...context, deadline_ms: BudgetClock.deadline(left) };
    }
    const request = toRequest(call, state);
    const started = performance.now();
    const invoke = async (): Promise<unknown> => {
      try {
        return await hook.definition.transport.invoke(request, context);
      } catch (error) {
        // A transport must resolve for every misbehaviour of its hook; a rejection is our bug, and
        // still fails closed rather than escaping as an allow.
        return isHookError(error)
          ? { ok: false, failure: error.toFailure() }
          : { ok: false, failure: { code: 'internal_error', message: `transport "${hook.definition.transport.kind}" threw: ${preview(error instanceof Error ? `${error.name}: ${error.message}` : error, 300)}` } };
      }
    };
    // close() settles a pending call at once, as the hook's timeout would (its transport is being closed).
    const result = await this.#pending.run(invoke, () => ({ ok: false, failure: { code: 'timeout', message: `the runner was closed while the call was in flight (hook "${name}")` } }));
    const ms = Math.round((performance.now() - started) * 1000) / 1000;

    let failure: HookFailure | undefined;
    let response: HookResponse | undefined;
    // Re-check at the boundary: a transport (or an interceptor) may hand back anything at run time.
    const checked = checkInvokeResult(result, hook.definition.transport.kind);
    if (checked.ok) {
      failure = checkDecisionForEvent(checked.response, state.event);
      if (failure === undefined && checked.response.decision === 'modify' && options.checkInput) {
        failure = await checkModifiedInput(options.checkInput, checked.response.input);
      }
      if (failure === undefined) response = checked.response;
    } else {
      failure = checked.failure;
    }

    if (failure !== undefined) {
      if (failure.code === 'timeout' && context.deadline_ms !== undefined && budget !== undefined) {
        // Say why the hook had so little time: the budget, not (only) its own timeout, cut it short.
        failure = { ...failure, message: `${failure.message} (the chain's ${budget.budgetMs} ms budget left it ${context.deadline_ms} ms)` };
      }
      return this.#failed(hook, failure, checked.logs, ms, state.event, budgetNote);
    }
    if (response === undefined) throw new Error('unreachable: no failure and no response');
    let entry: TrailEntry = withLogs(
      response.decision === 'allow'
        ? { hook: name, decision: 'allow', ms }
        : response.reason === undefined
          ? { hook: name, decision: response.decision, ms }
          : { hook: name, decision: response.decision, reason: response.reason, ms },
      checked.logs,
    );
    if (budgetNote !== undefined) entry = { ...entry, budget: budgetNote };
    if (response.decision === 'deny') return { entry, step: { kind: 'deny', reason: response.reason } };
    return { entry, step: { kind: 'continue', response } };
  }

  /** A failed hook's entry and step, under its `on_failure` policy. */
  #failed(hook: CompiledHook, failure: HookFailure, logs: HookLogs | undefined, ms: number, event: HookEvent, budget: TrailEntry['budget']): Evaluated {
    const name = hook.definition.name;
    let entry = withLogs({ hook: name, decision: hook.policy, failure, policy: hook.policy, ms }, logs);
    if (budget !== undefined) entry = { ...entry, budget };
    if (hook.policy === 'allow') return { entry, step: { kind: 'continue', response: undefined } };
    return { entry, step: { kind: 'deny', reason: failureReason(name, failure.code, event) } };
  }
}

type Rewrite = { input?: JsonValue; output?: JsonValue; is_error?: boolean };

/** The rewrite a modify or replace made (or, for a shadow, proposed). */
function rewriteOf(step: Step): Rewrite {
  const response = step.kind === 'continue' ? step.response : undefined;
  if (response?.decision === 'modify') return { input: response.input };
  if (response?.decision === 'replace') return response.is_error === undefined ? { output: response.output } : { output: response.output, is_error: response.is_error };
  return {};
}

/** A shadow entry's proposed rewrite, for its audit event. */
function rewriteFields(entry: TrailEntry): Rewrite {
  const out: Rewrite = {};
  if (entry.input !== undefined) out.input = entry.input;
  if (entry.output !== undefined) out.output = entry.output;
  if (entry.is_error !== undefined) out.is_error = entry.is_error;
  return out;
}

function withLogs(entry: TrailEntry, logs: HookLogs | undefined): TrailEntry {
  let out = entry;
  if (logs?.stderr) out = { ...out, stderr: logs.stderr };
  if (logs?.stdout) out = { ...out, stdout: logs.stdout };
  return out;
}

/** A rewrite the tool would not accept is the hook's failure; a checker that throws is ours (still fails closed). */
async function checkModifiedInput(check: NonNullable<RunOptions['checkInput']>, input: JsonValue): Promise<HookFailure | undefined> {
  let problem: string | undefined;
  try {
    problem = await check(input);
  } catch (error) {
    return { code: 'internal_error', message: `checking the rewritten input threw: ${String(error)}` };
  }
  if (problem === undefined) return undefined;
  return { code: 'malformed_response', message: `"modify" rewrote the input to something the tool does not accept: ${problem}` };
}

