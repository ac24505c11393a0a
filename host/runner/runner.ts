import { performance } from 'node:perf_hooks';
import type { HookCall, PostToolUseCall, PreToolUseCall } from '../contract/call.js';
import type { GatewayAuditEvent } from '../contract/audit.js';
import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy, HookFailure } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, PostToolUseOutcome, PreToolUseOutcome, TrailEntry } from '../contract/outcome.js';
import { preview } from '../contract/preview.js';
import type { HookRequest } from '../contract/request.js';
import type { HookResponse } from '../contract/response.js';
import { requestText, toRequest, type ChainState, type RequestText } from '../codec/request.js';
import { isHookError } from '../errors/hook-error.js';
import { RunnerError } from '../errors/runner-error.js';
import { ChainTelemetry, type HookTraits } from '../telemetry/chain.js';
import { fuelOf, traitsOf, withFuel } from './hook-telemetry.js';
import { telemetrySources } from '../telemetry/options.js';
import type { TelemetrySources } from '../telemetry/sources.js';
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
import { askFilter } from './when.js';
import type { CallFilter } from './matcher.js';

// Options live in options.ts beside the other chain concepts; re-exported for those importing them from here.
export type { RunOptions, RunnerOptions } from './options.js';

interface CompiledHook {
  readonly definition: HookDefinition;
  readonly matches: (toolName: string) => boolean;
  readonly policy: FailurePolicy;
  readonly shadow: boolean;
  /** What telemetry says of the hook besides its entries. */
  readonly traits: HookTraits;
  /** Entries recorded so far: the first is the hook's cold start in this runner. */
  recorded: number;
}


/** What one hook did to the chain, once its policy is applied. */
type Step =
  | { readonly kind: 'continue'; readonly response: HookResponse | undefined }
  | { readonly kind: 'deny'; readonly reason: string };

/** A hook whose `when` said no: it does not run and is not in the trail. */
const SKIPPED = Symbol('skipped');

/** One hook's evaluation: its trail entry, and what it means for the chain (ignored for a shadow). */
interface Evaluated {
  readonly entry: TrailEntry;
  readonly step: Step;
  /** Fuel the guest spent, when telemetry is recording and the transport says. */
  fuel?: number;
}

/** What a chain carries from hook to hook besides its state. */
interface Chain {
  readonly call: HookCall;
  readonly trail: ChainTrail;
  readonly budget: BudgetClock | undefined;
  readonly audit: AuditEmitter | undefined;
  /** Spans and metrics, while an SDK listens. */
  readonly telemetry: ChainTelemetry | undefined;
  readonly started: number;
  readonly options: RunOptions;
}

/**
 * The hook chain. Every rule of the contract's chain lives here, once, identical for every transport:
 *
 * - hooks for an event run **serially** in declared order, filtered by their tool matcher and, at
 *   their turn, by their `when` (a {@link CallFilter}, asked on the state they would see: false skips
 *   the hook, a failure is the hook's); each sees the state left by the previous one (the input as
 *   rewritten so far; the output as replaced so far);
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
 * - with an audit sink, the chain emits `chain_started`, one `hook_decided` per hook, `chain_decided`;
 * - while an OpenTelemetry SDK is registered (or providers are given), each chain is a
 *   `basis_hooks.chain` span with a `basis_hooks.hook` child per hook, and counts and times itself in
 *   metrics (see telemetry/); without one this costs a provider lookup per chain.
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
  readonly #telemetry: TelemetrySources | undefined;
  readonly #payloads: boolean;
  readonly #reasons: boolean;
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
      traits: traitsOf(definition.name, definition.transport),
      recorded: 0,
    }));
    this.#budgets = checkBudgets(options.budget_ms);
    this.#audit = AuditEmitter.create(options);
    this.#telemetry = telemetrySources(options);
    this.#payloads = options.telemetry_payloads === true;
    this.#reasons = options.telemetry_reasons === true;
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

  /**
   * Add an event an integration built (the MCP gateway's `tool_definition_changed`,
   * `tool_call_refused`) to this runner's audit stream; nothing happens without an audit sink.
   */
  record(event: GatewayAuditEvent): void {
    this.#audit?.record(event);
  }

  /** Whether this runner has an audit stream. */
  get audited(): boolean {
    return this.#audit !== undefined;
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

  /** Start the `pre_tool_use` chain; synchronous as long as every hook answers synchronously. */
  #pre(call: PreToolUseCall, input: JsonValue, options: RunOptions): PreToolUseOutcome | Promise<PreToolUseOutcome> {
    const hooks = this.#selected('pre_tool_use', call.tool_name);
    const chain = this.#begin(call, input, hooks, options);
    return this.#preFrom(chain, hooks, 0, { input, modified: false, view: undefined });
  }

  /** Run the `pre_tool_use` hooks from `from` on; continues asynchronously only after a hook that did. */
  #preFrom(chain: Chain, hooks: readonly CompiledHook[], from: number, at: PreState): PreToolUseOutcome | Promise<PreToolUseOutcome> {
    for (let i = from; i < hooks.length; i++) {
      const hook = hooks[i] as CompiledHook;
      at.view ??= viewOf(chain.call, { event: 'pre_tool_use', input: at.input });
      if (hook.shadow) {
        this.#shadow(hook, at.view, chain);
        continue;
      }
      const evaluated = this.#enforce(hook, at.view, chain);
      if (evaluated === SKIPPED) continue;
      if (evaluated instanceof Promise) {
        return evaluated.then((done) => this.#preStep(chain, at, done.step) ?? this.#preFrom(chain, hooks, i + 1, at));
      }
      const end = this.#preStep(chain, at, evaluated.step);
      if (end !== undefined) return end;
    }
    return this.#end(chain, { event: 'pre_tool_use', tool_call_id: chain.call.tool_call_id, decision: 'allow', input: at.input, modified: at.modified, trail: chain.trail.entries() }, at.input);
  }

  /** Apply one enforcing hook's step before the call: the chain's end on deny, else undefined (go on). */
  #preStep(chain: Chain, at: PreState, step: Step): PreToolUseOutcome | Promise<PreToolUseOutcome> | undefined {
    if (step.kind === 'deny') {
      return this.#end(chain, { event: 'pre_tool_use', tool_call_id: chain.call.tool_call_id, decision: 'deny', reason: step.reason, trail: chain.trail.entries() }, at.input);
    }
    if (step.response?.decision === 'modify') {
      at.input = step.response.input;
      at.modified = true;
      at.view = undefined;
    }
    return undefined;
  }

  /** Start the `post_tool_use` chain; synchronous as long as every hook answers synchronously. */
  #post(call: PostToolUseCall, input: JsonValue, options: RunOptions): PostToolUseOutcome | Promise<PostToolUseOutcome> {
    const hooks = this.#selected('post_tool_use', call.tool_name);
    const chain = this.#begin(call, input, hooks, options);
    return this.#postFrom(chain, hooks, 0, { input, output: call.output, isError: call.is_error, replaced: false, view: undefined });
  }

  #postFrom(chain: Chain, hooks: readonly CompiledHook[], from: number, at: PostState): PostToolUseOutcome | Promise<PostToolUseOutcome> {
    for (let i = from; i < hooks.length; i++) {
      const hook = hooks[i] as CompiledHook;
      at.view ??= viewOf(chain.call, { event: 'post_tool_use', input: at.input, output: at.output, is_error: at.isError });
      if (hook.shadow) {
        this.#shadow(hook, at.view, chain);
        continue;
      }
      const evaluated = this.#enforce(hook, at.view, chain);
      if (evaluated === SKIPPED) continue;
      if (evaluated instanceof Promise) {
        return evaluated.then((done) => this.#postStep(chain, at, done.step) ?? this.#postFrom(chain, hooks, i + 1, at));
      }
      const end = this.#postStep(chain, at, evaluated.step);
      if (end !== undefined) return end;
    }
    return this.#end(chain, {
      event: 'post_tool_use',
      tool_call_id: chain.call.tool_call_id,
      decision: 'allow',
      output: at.output,
      is_error: at.isError,
      replaced: at.replaced,
      trail: chain.trail.entries(),
    }, at.input);
  }

  /** Apply one enforcing hook's step after the call: the chain's end on deny, else undefined (go on). */
  #postStep(chain: Chain, at: PostState, step: Step): PostToolUseOutcome | Promise<PostToolUseOutcome> | undefined {
    if (step.kind === 'deny') {
      return this.#end(chain, {
        event: 'post_tool_use',
        tool_call_id: chain.call.tool_call_id,
        decision: 'deny',
        output: step.reason,
        is_error: true,
        replaced: at.replaced,
        trail: chain.trail.entries(),
      }, at.input);
    }
    if (step.response?.decision === 'replace') {
      at.output = step.response.output;
      if (step.response.is_error !== undefined) at.isError = step.response.is_error;
      at.replaced = true;
      at.view = undefined;
    }
    return undefined;
  }

  /** Start a chain: its budget clock (when the event has a budget), its trail, its `chain_started`. */
  #begin(call: HookCall, input: JsonValue, hooks: readonly CompiledHook[], options: RunOptions): Chain {
    const started = performance.now();
    const budgetMs = options.budget_ms === undefined ? this.#budgets?.[call.event] : checkBudget('budget_ms', options.budget_ms);
    const budget = budgetMs === undefined ? undefined : new BudgetClock(budgetMs, started);
    const audit = this.#audit;
    audit?.chainStarted(call, input, hooks.map((h) => h.definition.name), budgetMs);
    const telemetry = this.#telemetry === undefined || this.#telemetry.quiet ? undefined : this.#chainTelemetry(call, budgetMs, options, started);
    return { call, trail: new ChainTrail(), budget, audit, telemetry, started, options };
  }

  /** The chain's spans and metrics, when a tracer or a meter listens (one provider lookup when none does). */
  #chainTelemetry(call: HookCall, budgetMs: number | undefined, options: RunOptions, started: number): ChainTelemetry | undefined {
    const sources = this.#telemetry;
    if (sources === undefined || sources.quiet) return undefined;
    const tracer = sources.tracer();
    const instruments = sources.instruments();
    if (tracer === undefined && instruments === undefined) return undefined;
    return ChainTelemetry.start(tracer, instruments, { call, budgetMs, parent: options.trace_context, started, payloads: this.#payloads, reasons: this.#reasons });
  }

  /**
   * End a chain: let answered shadows land in the trail, then `chain_decided`. `outcome` is the
   * chain's own fresh object; with shadows its trail is replaced by the settled copy. Synchronous
   * without shadows.
   */
  #end<O extends Outcome>(chain: Chain, outcome: O, input: JsonValue): O | Promise<O> {
    if (!chain.trail.hasShadows) {
      const ms = performance.now() - chain.started;
      chain.audit?.chainDecided(chain.call, outcome, ms);
      chain.telemetry?.end(outcome, ms, input);
      return outcome;
    }
    return chain.trail.settle(chain.options.wait_for_shadows === true).then(() => {
      outcome.trail = chain.trail.entries();
      const ms = performance.now() - chain.started;
      chain.audit?.chainDecided(chain.call, outcome, ms);
      chain.telemetry?.end(outcome, ms, input);
      return outcome;
    });
  }

  /** Run an enforcing hook and record it (unless its `when` skipped it). */
  #enforce(hook: CompiledHook, view: StateView, chain: Chain): Evaluated | Promise<Evaluated> | typeof SKIPPED {
    const evaluated = this.#evaluate(hook, view, chain);
    if (evaluated === SKIPPED) return SKIPPED;
    if (evaluated instanceof Promise) return evaluated.then((done) => this.#record(hook, done, chain));
    return this.#record(hook, evaluated, chain);
  }

  #record(hook: CompiledHook, evaluated: Evaluated, chain: Chain): Evaluated {
    const cold = hook.recorded++ === 0;
    chain.trail.push(evaluated.entry);
    chain.audit?.hookDecided(chain.call, evaluated.entry, chain.audit.payloads ? rewriteOf(evaluated.step) : undefined, cold);
    chain.telemetry?.hook(hook.traits, evaluated.entry, cold, evaluated.fuel);
    return evaluated;
  }

  /** Start a shadow hook on the current state; the chain does not wait for it. */
  #shadow(hook: CompiledHook, view: StateView, chain: Chain): void {
    const failed = (error: unknown): TrailEntry => ({
      hook: hook.definition.name,
      decision: hook.policy,
      failure: { code: 'internal_error', message: `the runner failed: ${String(error)}` },
      policy: hook.policy,
      ms: 0,
      shadow: true,
    });
    let started: Evaluated | Promise<Evaluated> | typeof SKIPPED;
    try {
      started = this.#evaluate(hook, view, chain);
    } catch (error) {
      started = Promise.reject(error);
    }
    if (started === SKIPPED) return;
    let fuel: number | undefined;
    const run = Promise.resolve(started).then(({ entry, step, fuel: spent }) => {
      fuel = spent;
      return { ...entry, shadow: true as const, ...rewriteOf(step) };
    }, failed);
    const landed = chain.trail.shadow(run, (entry) => {
      const cold = hook.recorded++ === 0;
      chain.audit?.hookDecided(chain.call, entry, rewriteFields(entry), cold);
      chain.telemetry?.hook(hook.traits, entry, cold, fuel);
    });
    this.#inFlight.add(landed);
    void landed.finally(() => this.#inFlight.delete(landed));
  }

  /**
   * Run one hook, check its answer against the contract and the event, apply its failure policy.
   * Synchronous when its transport answers synchronously (and a `checkInput` does, for a modify).
   * {@link SKIPPED} when its `when` says it does not run for this request.
   */
  #evaluate(hook: CompiledHook, view: StateView, chain: Chain): Evaluated | Promise<Evaluated> | typeof SKIPPED {
    const name = hook.definition.name;
    const { budget, options } = chain;
    const event = view.request.event;
    const when = hook.definition.when;
    if (when !== undefined) {
      const verdict = askFilter(when, view.request);
      if (verdict === false) return SKIPPED;
      if (verdict !== true) return this.#failed(hook, verdict, undefined, 0, event, undefined);
    }
    let deadline: number | undefined;
    let budgetNote: TrailEntry['budget'];
    if (budget !== undefined) {
      const left = budget.leftMs();
      budgetNote = BudgetClock.trail(budget.budgetMs, left);
      if (left <= 0) {
        return this.#failed(hook, budget.exhausted(name, event, left), undefined, 0, event, budgetNote);
      }
      deadline = BudgetClock.deadline(left);
    }
    const context = contextOf(name, options.signal, deadline, view.text);
    const transport = hook.definition.transport;
    // A chain still running when close() was called starts no further hook (its transport is closed).
    if (this.#closed) return this.#judge(hook, closedResult(name), 0, event, chain, context, budgetNote);
    const started = performance.now();
    let result: unknown;
    try {
      result = transport.invoke(view.request, context);
    } catch (error) {
      result = thrown(transport.kind, error);
    }
    // Read at once, and only while telemetry records: the next call of this transport overwrites what its meter says.
    const fuel = chain.telemetry === undefined ? undefined : fuelOf(transport);
    const promised = thenableOf(result);
    if ('error' in promised) return withFuel(this.#judge(hook, thrown(transport.kind, promised.error), elapsedMs(started), event, chain, context, budgetNote), fuel);
    const pending = promised.thenable;
    if (pending === undefined) return withFuel(this.#judge(hook, result, elapsedMs(started), event, chain, context, budgetNote), fuel);
    const closed = (): unknown => closedResult(name);
    // close() settles a pending call at once, as the hook's timeout would (its transport is being closed).
    const settled = this.#pending
      .run(pending, closed)
      .then(
        (answer) => this.#judge(hook, answer, elapsedMs(started), event, chain, context, budgetNote),
        (error: unknown) => this.#judge(hook, thrown(transport.kind, error), elapsedMs(started), event, chain, context, budgetNote),
      );
    return withFuel(settled, fuel);
  }

  /**
   * What a hook's answer (or failure) comes to, under the contract, the event and its policy. (A
   * method, not a closure made per hook: the synchronous path allocates nothing it does not return.)
   */
  #judge(hook: CompiledHook, result: unknown, ms: number, event: HookEvent, chain: Chain, context: InvokeContext, budgetNote: TrailEntry['budget']): Evaluated | Promise<Evaluated> {
    // Re-check at the boundary: a transport (or an interceptor) may hand back anything at run time.
    const checked = checkInvokeResult(result, hook.definition.transport.kind);
    if (!checked.ok) return this.#failedWithin(hook, checked.failure, checked.logs, ms, event, chain, context, budgetNote);
    const response = checked.response;
    const wrong = checkDecisionForEvent(response, event);
    if (wrong !== undefined) return this.#failed(hook, wrong, checked.logs, ms, event, budgetNote);
    const check = chain.options.checkInput;
    if (response.decision === 'modify' && check !== undefined) {
      const problem = checkModifiedInput(check, response.input);
      if (problem instanceof Promise) {
        return problem.then((failure) => (failure === undefined ? this.#answered(hook, response, checked.logs, ms, budgetNote) : this.#failed(hook, failure, checked.logs, ms, event, budgetNote)));
      }
      if (problem !== undefined) return this.#failed(hook, problem, checked.logs, ms, event, budgetNote);
    }
    return this.#answered(hook, response, checked.logs, ms, budgetNote);
  }

  /** A hook that answered within the contract: its trail entry and what it means for the chain. */
  #answered(hook: CompiledHook, response: HookResponse, logs: HookLogs | undefined, ms: number, budgetNote: TrailEntry['budget']): Evaluated {
    const name = hook.definition.name;
    const entry: TrailEntry =
      response.decision === 'allow' || response.reason === undefined ? { hook: name, decision: response.decision, ms } : { hook: name, decision: response.decision, reason: response.reason, ms };
    addNotes(entry, logs, budgetNote);
    if (response.decision === 'deny') return { entry, step: { kind: 'deny', reason: response.reason } };
    return { entry, step: { kind: 'continue', response } };
  }

  /** A failure, with the budget named when the budget (not the hook's own timeout) cut the hook short. */
  #failedWithin(hook: CompiledHook, failure: HookFailure, logs: HookLogs | undefined, ms: number, event: HookEvent, chain: Chain, context: InvokeContext, budgetNote: TrailEntry['budget']): Evaluated {
    const budget = chain.budget;
    if (failure.code === 'timeout' && context.deadline_ms !== undefined && budget !== undefined) {
      // Say why the hook had so little time: the budget, not (only) its own timeout, cut it short.
      const message = `${failure.message} (the chain's ${budget.budgetMs} ms budget left it ${context.deadline_ms} ms)`;
      return this.#failed(hook, { code: failure.code, message }, logs, ms, event, budgetNote);
    }
    return this.#failed(hook, failure, logs, ms, event, budgetNote);
  }

  /** A failed hook's entry and step, under its `on_failure` policy. */
  #failed(hook: CompiledHook, failure: HookFailure, logs: HookLogs | undefined, ms: number, event: HookEvent, budget: TrailEntry['budget']): Evaluated {
    const name = hook.definition.name;
    const entry: TrailEntry = { hook: name, decision: hook.policy, failure, policy: hook.policy, ms };
    addNotes(entry, logs, budget);
    if (hook.policy === 'allow') return { entry, step: { kind: 'continue', response: undefined } };
    return { entry, step: { kind: 'deny', reason: failureReason(name, failure.code, event) } };
  }
}

/** Where a `pre_tool_use` chain stands: the input as rewritten so far, and its view (made when a hook needs it). */
interface PreState {
  input: JsonValue;
  modified: boolean;
  view: StateView | undefined;
}

/** Where a `post_tool_use` chain stands: the output (and error flag) as replaced so far. */
interface PostState {
  readonly input: JsonValue;
  output: JsonValue;
  isError: boolean;
  replaced: boolean;
  view: StateView | undefined;
}

/**
 * One chain state as hooks see it: the request, made once and handed to every hook that sees this
 * state (transports never change it: an interceptor gets its own copy), and its JSON text, made at
 * most once, when a transport first reads it.
 */
interface StateView {
  readonly request: HookRequest;
  readonly text: RequestText;
}

function viewOf(call: HookCall, state: ChainState): StateView {
  const request = toRequest(call, state);
  return { request, text: requestText(request) };
}

/** The context a hook's transport is invoked with (literals per shape, no spreads: this is per hook). */
function contextOf(hook: string, signal: AbortSignal | undefined, deadline: number | undefined, text: RequestText): InvokeContext {
  if (signal === undefined) return deadline === undefined ? { hook, text } : { hook, deadline_ms: deadline, text };
  return deadline === undefined ? { hook, signal, text } : { hook, signal, deadline_ms: deadline, text };
}

/** What a call still in flight when the runner closed comes to (its transport is being closed). */
function closedResult(hook: string): unknown {
  return { ok: false, failure: { code: 'timeout', message: `the runner was closed while the call was in flight (hook "${hook}")` } };
}

/** Milliseconds since `started`, to the µs (the trail's `ms`). */
function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** A promise-like answer; reading `then` may throw (a hostile or broken transport): that is answered `error`. */
function thenableOf(value: unknown): { readonly thenable: PromiseLike<unknown> | undefined } | { readonly error: unknown } {
  if (typeof value !== 'object' || value === null) return { thenable: undefined };
  try {
    return { thenable: typeof (value as { then?: unknown }).then === 'function' ? (value as PromiseLike<unknown>) : undefined };
  } catch (error) {
    return { error };
  }
}

/**
 * A transport must answer for every misbehaviour of its hook; a throw (or a rejection) is our bug,
 * and still fails closed rather than escaping as an allow.
 */
function thrown(kind: string, error: unknown): unknown {
  if (isHookError(error)) return { ok: false, failure: error.toFailure() };
  return { ok: false, failure: { code: 'internal_error', message: `transport "${kind}" threw: ${preview(error instanceof Error ? `${error.name}: ${error.message}` : error, 300)}` } };
}

/** Put the hook's captured output and the budget on its trail entry. */
function addNotes(entry: TrailEntry, logs: HookLogs | undefined, budget: TrailEntry['budget']): void {
  if (logs?.stderr) entry.stderr = logs.stderr;
  if (logs?.stdout) entry.stdout = logs.stdout;
  if (budget !== undefined) entry.budget = budget;
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
