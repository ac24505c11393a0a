import { performance } from 'node:perf_hooks';
import { HookCall, type PostToolUseCall, type PreToolUseCall } from '../contract/call.js';
import type { HookEvent } from '../contract/event.js';
import type { FailurePolicy, HookFailure } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, PostToolUseOutcome, PreToolUseOutcome, TrailEntry } from '../contract/outcome.js';
import type { HookResponse } from '../contract/response.js';
import { describeIssues, formatIssues } from '../contract/issues.js';
import { parseToolInput } from '../codec/input.js';
import { toRequest, type ChainState } from '../codec/request.js';
import { checkResponse } from '../codec/wire.js';
import { isHookError } from '../errors/hook-error.js';
import { RunnerError } from '../errors/runner-error.js';
import { checkDecisionForEvent } from './check-decision.js';
import type { HookDefinition } from './hook.js';
import { compileToolMatcher } from './matcher.js';
import type { HookLogs, InvokeResult } from './transport.js';

interface CompiledHook {
  readonly definition: HookDefinition;
  readonly matches: (toolName: string) => boolean;
  readonly policy: FailurePolicy;
}

/** A hook's tool matcher; an invalid `tools` list is refused naming the hook (`invalid_hooks`). */
function compileHookMatcher(hook: HookDefinition, index: number): (toolName: string) => boolean {
  try {
    return compileToolMatcher(hook.tools);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new RunnerError('invalid_hooks', `hooks[${index}] "${hook.name}": ${detail}`, { cause: error });
  }
}

/** Options for one run of the chain. */
export interface RunOptions {
  /** Abort to stop the hook that is running (the call then fails closed or open by policy). */
  readonly signal?: AbortSignal;
  /**
   * What the tool accepts, checked against every `modify` as it is answered (e.g. the tool's input
   * schema, known to the runtime but not to the chain). Return `undefined` to accept, or a sentence
   * saying what is wrong: the rewrite is then that hook's failure (`malformed_response`) under its
   * `on_failure`, so a later hook never sees it and the tool never runs with it.
   */
  readonly checkInput?: (input: JsonValue) => string | undefined | Promise<string | undefined>;
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
 * - `modify` after or `replace` before the call is a failure (`wrong_decision_for_event`), and so is a
 *   `modify` the tool would not accept, when the caller says what it accepts ({@link RunOptions.checkInput});
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
  #closed = false;

  constructor(hooks: readonly HookDefinition[]) {
    const seen = new Set<string>();
    for (const [index, hook] of hooks.entries()) {
      if (typeof hook.name !== 'string' || hook.name.trim() === '') {
        throw new RunnerError('invalid_hooks', `hooks[${index}]: a hook needs a non-empty name`);
      }
      if (seen.has(hook.name)) {
        throw new RunnerError('invalid_hooks', `hooks[${index}]: duplicate hook name "${hook.name}" (the trail would be ambiguous)`);
      }
      if (hook.event !== 'pre_tool_use' && hook.event !== 'post_tool_use') {
        throw new RunnerError('invalid_hooks', `hooks[${index}] "${hook.name}": unknown event ${JSON.stringify(hook.event)}`);
      }
      seen.add(hook.name);
    }
    this.#hooks = hooks.map((definition, index) => ({
      definition,
      matches: compileHookMatcher(definition, index),
      policy: definition.on_failure ?? 'deny',
    }));
  }

  /** The hooks in declared order. */
  get hooks(): readonly HookDefinition[] {
    return this.#hooks.map((h) => h.definition);
  }

  /** Run the chain for a call at whichever event it names. */
  async run(call: HookCall, options: RunOptions = {}): Promise<Outcome> {
    const parsed = this.#validate(call);
    return parsed.event === 'pre_tool_use' ? this.#pre(parsed, options) : this.#post(parsed, options);
  }

  /** Run the `pre_tool_use` chain: may the call run, and with which input? */
  async pre(call: Omit<PreToolUseCall, 'event'> & { event?: 'pre_tool_use' }, options: RunOptions = {}): Promise<PreToolUseOutcome> {
    const parsed = this.#validate({ ...call, event: 'pre_tool_use' });
    if (parsed.event !== 'pre_tool_use') throw new RunnerError('invalid_call', 'pre() needs a pre_tool_use call');
    return this.#pre(parsed, options);
  }

  /** Run the `post_tool_use` chain: what does the model see of the result? */
  async post(call: Omit<PostToolUseCall, 'event'> & { event?: 'post_tool_use' }, options: RunOptions = {}): Promise<PostToolUseOutcome> {
    const parsed = this.#validate({ ...call, event: 'post_tool_use' });
    if (parsed.event !== 'post_tool_use') throw new RunnerError('invalid_call', 'post() needs a post_tool_use call');
    return this.#post(parsed, options);
  }

  /** Close every hook's transport (processes, workers, instances). Later calls are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#hooks.map((h) => h.definition.transport.close?.()));
  }

  #validate(call: unknown): HookCall {
    if (this.#closed) throw new RunnerError('runner_closed', 'the runner is closed');
    const result = HookCall.safeParse(call);
    if (!result.success) {
      throw new RunnerError('invalid_call', `invalid call: ${formatIssues(describeIssues(result.error, call))}`, { cause: result.error });
    }
    return result.data;
  }

  #selected(event: HookEvent, toolName: string): CompiledHook[] {
    return this.#hooks.filter((h) => h.definition.event === event && h.matches(toolName));
  }

  async #pre(call: PreToolUseCall, options: RunOptions): Promise<PreToolUseOutcome> {
    let input = parseToolInput(call.input);
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

  async #post(call: PostToolUseCall, options: RunOptions): Promise<PostToolUseOutcome> {
    const input = parseToolInput(call.input);
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
    let result: InvokeResult;
    try {
      result = await hook.definition.transport.invoke(request, options.signal ? { hook: name, signal: options.signal } : { hook: name });
    } catch (error) {
      // A transport must resolve for every misbehaviour of its hook; a rejection is our bug, and
      // still fails closed rather than escaping as an allow.
      result = isHookError(error)
        ? { ok: false, failure: error.toFailure() }
        : { ok: false, failure: { code: 'internal_error', message: `transport "${hook.definition.transport.kind}" threw: ${String(error)}` } };
    }
    const ms = Math.round((performance.now() - started) * 1000) / 1000;

    let failure: HookFailure | undefined;
    let response: HookResponse | undefined;
    if (result.ok) {
      // Re-check at the boundary: a transport (or an interceptor) may hand back anything at run time.
      const checked = checkResponse(result.response);
      if (!checked.ok) failure = checked.failure;
      else {
        failure = checkDecisionForEvent(checked.value, state.event);
        if (failure === undefined && checked.value.decision === 'modify' && options.checkInput) {
          failure = await checkModifiedInput(options.checkInput, checked.value.input);
        }
        if (failure === undefined) response = checked.value;
      }
    } else {
      failure = result.failure;
    }

    if (failure !== undefined) {
      const entry = withLogs({ hook: name, decision: hook.policy, failure, policy: hook.policy, ms }, result.logs);
      trail.push(entry);
      if (hook.policy === 'allow') return { kind: 'continue', response: undefined };
      return { kind: 'deny', reason: failureReason(name, failure, state.event) };
    }
    if (response === undefined) throw new Error('unreachable: no failure and no response');
    const entry: TrailEntry = withLogs(
      response.decision === 'allow'
        ? { hook: name, decision: 'allow', ms }
        : response.reason === undefined
          ? { hook: name, decision: response.decision, ms }
          : { hook: name, decision: response.decision, reason: response.reason, ms },
      result.logs,
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

/** What the model is told when a hook failed closed: which hook, which cause. */
function failureReason(hook: string, failure: HookFailure, event: HookEvent): string {
  const what = event === 'pre_tool_use' ? 'the call was denied' : 'the output was withheld';
  return `hook "${hook}" failed (${failure.code}): ${failure.message}; ${what} (fail closed)`;
}
