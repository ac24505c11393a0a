import { performance } from 'node:perf_hooks';
import type { HookCall, PostToolUseCall, PreToolUseCall } from '../contract/call.js';
import type { GatewayAuditEvent } from '../contract/audit.js';
import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, PostToolUseOutcome, PreToolUseOutcome, TrailEntry } from '../contract/outcome.js';
import { RunnerError } from '../errors/runner-error.js';
import type { ChainTelemetry, HookTraits } from '../telemetry/chain.js';
import { chainTelemetry, traitsOf } from './hook-telemetry.js';
import { telemetrySources } from '../telemetry/options.js';
import type { TelemetrySources } from '../telemetry/sources.js';
import { AuditEmitter } from './audit.js';
import { BudgetClock, checkBudget, checkBudgets, type ChainBudgets } from './budget.js';
import { failed, judge, postView, preView, rewriteOf, stepPost, stepPre, type Evaluated, type JudgeContext, type PostState, type PreState, type StateView } from './chain-core.js';
import { InFlight } from './in-flight.js';
import { SKIPPED, closedFailure, closedResult, contextOf, filtered, invokeAndJudge, rewriteFields, underBudget } from './invoke.js';
import { validateCall, type ValidCall } from './validate-call.js';
import { validateHooks } from './validate-hooks.js';
import type { HookDefinition } from './hook.js';
import { compileToolMatcher, type CallFilter } from './matcher.js';
import type { RunnerOptions, RunOptions } from './options.js';
import { handOver, segmentEnd } from './hop.js';
import { ChainTrail, startShadow } from './shadow.js';
import type { HopGroup, SegmentResult, SegmentState } from './transport.js';

// Options live in options.ts beside the other chain concepts; re-exported for those importing them from here.
export type { RunOptions, RunnerOptions } from './options.js';

interface CompiledHook {
  readonly definition: HookDefinition;
  /** Its name and policy: what the chain's rules need of it (chain-core.ts). */
  readonly rule: { readonly name: string; readonly policy: FailurePolicy };
  readonly matches: (toolName: string) => boolean;
  readonly policy: FailurePolicy;
  readonly shadow: boolean;
  /** What telemetry says of the hook besides its entries. */
  readonly traits: HookTraits;
  /** Entries recorded so far: the first is the hook's cold start in this runner. */
  recorded: number;
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
  /** What each hook's judgement takes besides its answer (chain-core.ts), made once per chain. */
  readonly judging: JudgeContext;
}

const NO_JUDGING: JudgeContext = Object.freeze({});

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
 *   metrics (see telemetry/); without one this costs a provider lookup per chain;
 * - consecutive hooks that live together (a {@link HopGroup}: component hooks sharing workers) run in
 *   one hop, judged and applied where they run by these same rules (chain-core.ts).
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
      rule: { name: definition.name, policy: definition.on_failure ?? 'deny' },
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
      const view = preView(chain.call, at);
      if (hook.shadow) {
        this.#shadow(hook, view, chain);
        continue;
      }
      const end = segmentEnd(hooks, i, chain.budget === undefined && chain.options.checkInput === undefined);
      if (end > i + 1) {
        const state = { event: 'pre_tool_use' as const, input: at.input };
        return this.#segment(chain, hooks, i, end, state, (done, h) => this.#preStep(chain, at, done, h), (next) => this.#preFrom(chain, hooks, next, at));
      }
      const evaluated = this.#enforce(hook, view, chain);
      if (evaluated === SKIPPED) continue;
      if (evaluated instanceof Promise) {
        return evaluated.then((done) => this.#preStep(chain, at, done) ?? this.#preFrom(chain, hooks, i + 1, at));
      }
      const denied = this.#preStep(chain, at, evaluated);
      if (denied !== undefined) return denied;
    }
    return this.#end(chain, { event: 'pre_tool_use', tool_call_id: chain.call.tool_call_id, decision: 'allow', input: at.input, modified: at.modified, trail: chain.trail.entries() }, at.input);
  }

  /** Apply one enforcing hook's step before the call (recorded first as `unrecorded`'s, from a segment): the chain's end on deny. */
  #preStep(chain: Chain, at: PreState, done: Evaluated, unrecorded?: CompiledHook): PreToolUseOutcome | Promise<PreToolUseOutcome> | undefined {
    if (unrecorded !== undefined) this.#record(unrecorded, done, chain);
    const reason = stepPre(at, done.step);
    if (reason === undefined) return undefined;
    return this.#end(chain, { event: 'pre_tool_use', tool_call_id: chain.call.tool_call_id, decision: 'deny', reason, trail: chain.trail.entries() }, at.input);
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
      const view = postView(chain.call, at);
      if (hook.shadow) {
        this.#shadow(hook, view, chain);
        continue;
      }
      const end = segmentEnd(hooks, i, chain.budget === undefined && chain.options.checkInput === undefined);
      if (end > i + 1) {
        const state = { event: 'post_tool_use' as const, input: at.input, output: at.output, is_error: at.isError };
        return this.#segment(chain, hooks, i, end, state, (done, h) => this.#postStep(chain, at, done, h), (next) => this.#postFrom(chain, hooks, next, at));
      }
      const evaluated = this.#enforce(hook, view, chain);
      if (evaluated === SKIPPED) continue;
      if (evaluated instanceof Promise) {
        return evaluated.then((done) => this.#postStep(chain, at, done) ?? this.#postFrom(chain, hooks, i + 1, at));
      }
      const denied = this.#postStep(chain, at, evaluated);
      if (denied !== undefined) return denied;
    }
    return this.#postEnd(chain, at);
  }

  /** The end of a `post_tool_use` chain: `allow` with the output as it stands, or `deny` with the reason as an error output. */
  #postEnd(chain: Chain, at: PostState, deny?: string): PostToolUseOutcome | Promise<PostToolUseOutcome> {
    const { tool_call_id } = chain.call;
    const trail = chain.trail.entries();
    const outcome: PostToolUseOutcome =
      deny === undefined
        ? { event: 'post_tool_use', tool_call_id, decision: 'allow', output: at.output, is_error: at.isError, replaced: at.replaced, trail }
        : { event: 'post_tool_use', tool_call_id, decision: 'deny', output: deny, is_error: true, replaced: at.replaced, trail };
    return this.#end(chain, outcome, at.input);
  }

  /** Apply one enforcing hook's step after the call (recorded first as `unrecorded`'s, from a segment): the chain's end on deny. */
  #postStep(chain: Chain, at: PostState, done: Evaluated, unrecorded?: CompiledHook): PostToolUseOutcome | Promise<PostToolUseOutcome> | undefined {
    if (unrecorded !== undefined) this.#record(unrecorded, done, chain);
    const reason = stepPost(at, done.step);
    if (reason === undefined) return undefined;
    return this.#postEnd(chain, at, reason);
  }

  /**
   * Hand hooks `from`..`to` (consecutive, enforcing, of one hop group) to their group, then record and
   * `apply` what each did — judged by the chain's own rules where the hooks ran — until one ends the
   * chain; the hooks after what came back run from `rest` (hook by hook, or the next segment). A
   * runner closed meanwhile settles it as its first hook failing `timeout`, as a hook's call would.
   */
  #segment<O>(chain: Chain, hooks: readonly CompiledHook[], from: number, to: number, state: SegmentState, apply: (done: Evaluated, hook: CompiledHook) => O | Promise<O> | undefined, rest: (next: number) => O | Promise<O>): Promise<O> {
    const first = hooks[from] as CompiledHook;
    const closed = (): SegmentResult => ({ evaluated: [failed(first.rule, closedFailure(first.rule.name), undefined, 0, chain.call.event, undefined)] });
    const segment = { call: chain.call, state, hooks: hooks.slice(from, to).map((h) => ({ name: h.rule.name, policy: h.policy, transport: h.definition.transport })) };
    return handOver(first.definition.transport.hop as HopGroup, segment, chain.options.signal, this.#pending, closed).then((result) => {
      for (const [k, done] of result.evaluated.entries()) {
        const ended = apply(done, hooks[from + k] as CompiledHook);
        if (ended !== undefined) return ended;
      }
      // A segment that stopped early (or could not run) leaves the rest to be run hook by hook.
      return rest(from + result.evaluated.length);
    });
  }

  /** Start a chain: its budget clock (when the event has a budget), its trail, its `chain_started`. */
  #begin(call: HookCall, input: JsonValue, hooks: readonly CompiledHook[], options: RunOptions): Chain {
    const started = performance.now();
    const budgetMs = options.budget_ms === undefined ? this.#budgets?.[call.event] : checkBudget('budget_ms', options.budget_ms);
    const budget = budgetMs === undefined ? undefined : new BudgetClock(budgetMs, started);
    const audit = this.#audit;
    audit?.chainStarted(call, input, hooks.map((h) => h.definition.name), budgetMs);
    const judging = options.checkInput === undefined ? NO_JUDGING : { checkInput: options.checkInput };
    const telemetry = this.#telemetry === undefined || this.#telemetry.quiet ? undefined : chainTelemetry(this.#telemetry, { call, budgetMs, parent: options.trace_context, started, payloads: this.#payloads, reasons: this.#reasons });
    return { call, trail: new ChainTrail(), budget, audit, telemetry, started, options, judging };
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
    const landed = startShadow(chain.trail, hook.rule, () => this.#evaluate(hook, view, chain), (entry, fuel) => {
      const cold = hook.recorded++ === 0;
      chain.audit?.hookDecided(chain.call, entry, rewriteFields(entry), cold);
      chain.telemetry?.hook(hook.traits, entry, cold, fuel);
    });
    if (landed === undefined) return;
    this.#inFlight.add(landed);
    void landed.finally(() => this.#inFlight.delete(landed));
  }

  /**
   * Run one hook, check its answer against the contract and the event, apply its failure policy
   * (chain-core.ts `judge`). Synchronous when its transport answers synchronously (and a
   * `checkInput` does, for a modify); {@link SKIPPED} when its `when` says it does not run for this request.
   */
  #evaluate(hook: CompiledHook, view: StateView, chain: Chain): Evaluated | Promise<Evaluated> | typeof SKIPPED {
    const name = hook.rule.name;
    const { budget, options } = chain;
    const event = view.request.event;
    const when = hook.definition.when;
    if (when !== undefined) {
      const verdict = filtered(when, view.request, hook.rule, event);
      if (verdict !== true) return verdict;
    }
    let deadline: number | undefined;
    let judging = chain.judging;
    if (budget !== undefined) {
      const turn = underBudget(budget, hook.rule, event, options.checkInput);
      if ('entry' in turn) return turn;
      ({ deadline, judging } = turn);
    }
    // A chain still running when close() was called starts no further hook (its transport is closed).
    if (this.#closed) return judge(hook.rule, hook.definition.transport.kind, closedResult(name), 0, event, judging);
    return invokeAndJudge(hook.definition.transport, view.request, contextOf(name, options.signal, deadline, view.text), hook.rule, judging, this.#pending, chain.telemetry !== undefined);
  }
}
