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
import { checkDecisionForEvent } from './check-decision.js';
import { failureReason } from './failure-reason.js';
import { checkInvokeResult } from './invoke-result.js';
import { InFlight } from './in-flight.js';
import { validateCall, type ValidCall } from './validate-call.js';
import { validateHooks } from './validate-hooks.js';
import type { HookDefinition } from './hook.js';
import { compileToolMatcher } from './matcher.js';
import type { HookLogs } from './transport.js';

interface CompiledHook {
  readonly definition: HookDefinition;
  readonly matches: (toolName: string) => boolean;
  readonly policy: FailurePolicy;
}

/** Options for one run of the chain. */
export interface RunOptions {
  /** Abort to stop the hook that is running (the call then fails closed or open by policy). */
  readonly signal?: AbortSignal;
}

/** What one hook did to the chain, once its policy is applied. */
type Step =
  | { readonly kind: 'continue'; readonly response: HookResponse | undefined }
  | { readonly kind: 'deny'; readonly reason: string };

/**
 * The hook chain. Every rule of the contract's chain lives here, once, identical for every transport:
 *
 * - hooks for an event run **serially** in declared order, filtered by their tool matcher; each sees
 *   the state left by the previous one (the input as rewritten so far; the output as replaced so far);
 * - before the call: `allow` → next, `deny` → stop (call denied), `modify` → input replaced, next;
 * - after the call: `allow` → next, `replace` → output (and `is_error` when given) replaced, next,
 *   `deny` → stop, the model sees the reason in place of the output, marked as an error;
 * - `modify` after or `replace` before the call is a failure (`wrong_decision_for_event`);
 * - a failed hook takes its `on_failure` policy: `deny` (default, fail closed) or `allow` (skip it);
 * - every hook that ran gets a trail entry; `reason` on modify/replace reaches the trail only.
 *
 * @example
 * const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport }]);
 * const outcome = await runner.pre({ event: 'pre_tool_use', workspace: '/repo', agent_id: 'a1',
 *   tool_call_id: 'c1', tool_name: 'shell', input: '{"command":"git push --force"}' });
 * if (outcome.decision === 'deny') tellModel(outcome.reason);
 */
export class HookRunner {
  readonly #hooks: readonly CompiledHook[];
  readonly #inFlight = new InFlight<unknown>();
  #closed = false;

  constructor(hooks: readonly HookDefinition[]) {
    this.#hooks = validateHooks(hooks).map((definition) => ({
      definition,
      matches: compileToolMatcher(definition.tools),
      policy: definition.on_failure ?? 'deny',
    }));
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
   * Close every hook's transport (processes, workers, instances). Later calls are refused; calls still
   * running settle at once, the running hook failing `timeout` (its policy applies, the chain stops
   * at the next hook).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#inFlight.close();
    await Promise.all(this.#hooks.map((h) => h.definition.transport.close?.()));
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
    const trail: TrailEntry[] = [];
    for (const hook of this.#selected('pre_tool_use', call.tool_name)) {
      const step = await this.#step(hook, call, { event: 'pre_tool_use', input }, trail, options);
      if (step.kind === 'deny') {
        return { event: 'pre_tool_use', tool_call_id: call.tool_call_id, decision: 'deny', reason: step.reason, trail };
      }
      if (step.response?.decision === 'modify') {
        input = step.response.input;
        modified = true;
      }
    }
    return { event: 'pre_tool_use', tool_call_id: call.tool_call_id, decision: 'allow', input, modified, trail };
  }

  async #post(call: PostToolUseCall, input: JsonValue, options: RunOptions): Promise<PostToolUseOutcome> {
    let output: JsonValue = call.output;
    let isError = call.is_error;
    let replaced = false;
    const trail: TrailEntry[] = [];
    for (const hook of this.#selected('post_tool_use', call.tool_name)) {
      const state: ChainState = { event: 'post_tool_use', input, output, is_error: isError };
      const step = await this.#step(hook, call, state, trail, options);
      if (step.kind === 'deny') {
        return {
          event: 'post_tool_use',
          tool_call_id: call.tool_call_id,
          decision: 'deny',
          output: step.reason,
          is_error: true,
          replaced,
          trail,
        };
      }
      if (step.response?.decision === 'replace') {
        output = step.response.output;
        if (step.response.is_error !== undefined) isError = step.response.is_error;
        replaced = true;
      }
    }
    return { event: 'post_tool_use', tool_call_id: call.tool_call_id, decision: 'allow', output, is_error: isError, replaced, trail };
  }

  /** Run one hook, check its answer against the contract and the event, apply its failure policy. */
  async #step(hook: CompiledHook, call: HookCall, state: ChainState, trail: TrailEntry[], options: RunOptions): Promise<Step> {
    const name = hook.definition.name;
    const request = toRequest(call, state);
    const started = performance.now();
    const invoke = async (): Promise<unknown> => {
      try {
        return await hook.definition.transport.invoke(request, options.signal ? { hook: name, signal: options.signal } : { hook: name });
      } catch (error) {
        // A transport must resolve for every misbehaviour of its hook; a rejection is our bug, and
        // still fails closed rather than escaping as an allow.
        return isHookError(error)
          ? { ok: false, failure: error.toFailure() }
          : { ok: false, failure: { code: 'internal_error', message: `transport "${hook.definition.transport.kind}" threw: ${preview(error instanceof Error ? `${error.name}: ${error.message}` : error, 300)}` } };
      }
    };
    // close() settles a pending call at once, as the hook's timeout would (its transport is being closed).
    const result = await this.#inFlight.run(invoke, () => ({ ok: false, failure: { code: 'timeout', message: `the runner was closed while the call was in flight (hook "${name}")` } }));
    const ms = Math.round((performance.now() - started) * 1000) / 1000;

    let failure: HookFailure | undefined;
    let response: HookResponse | undefined;
    // Re-check at the boundary: a transport (or an interceptor) may hand back anything at run time.
    const checked = checkInvokeResult(result, hook.definition.transport.kind);
    if (checked.ok) {
      failure = checkDecisionForEvent(checked.response, state.event);
      if (failure === undefined) response = checked.response;
    } else {
      failure = checked.failure;
    }

    if (failure !== undefined) {
      const entry = withLogs({ hook: name, decision: hook.policy, failure, policy: hook.policy, ms }, checked.logs);
      trail.push(entry);
      if (hook.policy === 'allow') return { kind: 'continue', response: undefined };
      return { kind: 'deny', reason: failureReason(name, failure.code, state.event) };
    }
    if (response === undefined) throw new Error('unreachable: no failure and no response');
    const entry: TrailEntry = withLogs(
      response.decision === 'allow'
        ? { hook: name, decision: 'allow', ms }
        : response.reason === undefined
          ? { hook: name, decision: response.decision, ms }
          : { hook: name, decision: response.decision, reason: response.reason, ms },
      checked.logs,
    );
    trail.push(entry);
    if (response.decision === 'deny') return { kind: 'deny', reason: response.reason };
    return { kind: 'continue', response };
  }
}

function withLogs(entry: TrailEntry, logs: HookLogs | undefined): TrailEntry {
  let out = entry;
  if (logs?.stderr) out = { ...out, stderr: logs.stderr };
  if (logs?.stdout) out = { ...out, stdout: logs.stdout };
  return out;
}

