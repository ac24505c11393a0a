import type { Context } from '@opentelemetry/api';
import type { JsonValue } from '../../contract/json.js';
import type { PostToolUseOutcome, PreToolUseAllowed, PreToolUseOutcome } from '../../contract/outcome.js';
import type { HookRunner, RunOptions } from '../../runner/runner.js';
import { ExecuteToolSpan } from '../../telemetry/execute-tool.js';
import { ToolCallBlockedError } from './errors.js';
import { outputAsJson, outputAsText } from './json.js';

/** Where a tool call happens, as the contract's request names it, plus an optional audit callback. */
export interface HookScope {
  /** The workspace the agent works in (`workspace` on every request). */
  readonly workspace: string;
  /** The agent making the calls (`agent_id` on every request). */
  readonly agentId: string;
  /**
   * Called with every outcome the chain produces — before and after each call, allowed or not, with
   * the trail — for an audit log. A throw fails the tool call (it is your code, not a hook's).
   */
  readonly onOutcome?: ((outcome: PreToolUseOutcome | PostToolUseOutcome) => void) | undefined;
}

/** One tool call, as a framework hands it to {@link guardToolCall}. */
export interface GuardedCall<T> {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The input as the runner takes it: raw text (the parse rule applies) or an already-parsed value. */
  readonly input: JsonValue;
  /** Stops a running hook when the framework aborts the call (the call then fails closed). */
  readonly signal?: AbortSignal | undefined;
  /** What the tool accepts, checked against every `modify` (see {@link RunOptions.checkInput}). */
  readonly checkInput?: RunOptions['checkInput'];
  /** Run the tool: with the chain's input when `allowed.modified`, else exactly as the framework asked. */
  readonly execute: (allowed: PreToolUseAllowed) => Promise<T>;
  /** What an error thrown by the tool says (the text the framework would show the model). */
  readonly errorText: (error: unknown) => string;
}

/** How the call ended, for the framework to show the model in its own terms. */
export type GuardResult<T> =
  /** Nothing changed the result: return the tool's own value. */
  | { readonly kind: 'result'; readonly value: T }
  /** Nothing changed the tool's error: rethrow it unchanged. */
  | { readonly kind: 'thrown'; readonly error: unknown }
  /** A hook replaced the result; the model sees `output`, not marked as an error. */
  | { readonly kind: 'replaced'; readonly output: JsonValue; readonly outcome: PostToolUseOutcome }
  /** Refused, or replaced by an error: show the model `error.message`, marked as an error. */
  | { readonly kind: 'blocked'; readonly error: ToolCallBlockedError };

/**
 * Put one tool call through the chain: `pre_tool_use`, the tool, `post_tool_use`. Every rule is the
 * runner's; this only carries the call between the framework and the runner:
 *
 * - pre `deny` → `blocked` (`denied`), the tool does not run;
 * - pre allow/`modify` → the tool runs (with the rewritten input when modified);
 * - post with the result (or, when the tool threw, its error text with `is_error: true`):
 *   unchanged → `result` / `thrown` (the tool's own value or error, identity kept);
 *   `replace` → `replaced`, or `blocked` (`error_replaced`) when the replacement is an error;
 *   `deny` → `blocked` (`output_denied`).
 *
 * While an OpenTelemetry SDK is registered, the call is a GenAI `execute_tool {tool}` span: both
 * chains' spans are its children and the tool runs in its context.
 */
export async function guardToolCall<T>(runner: HookRunner, scope: HookScope, call: GuardedCall<T>): Promise<GuardResult<T>> {
  const span = ExecuteToolSpan.start(call.toolName, call.toolCallId, scope.agentId);
  if (span === undefined) return guarded(runner, scope, call, undefined);
  let result: GuardResult<T>;
  try {
    result = await guarded(runner, scope, call, span);
  } catch (error) {
    span.end(error instanceof Error ? error.name : 'Error');
    throw error;
  }
  span.end(result.kind === 'blocked' ? result.error.code : result.kind === 'thrown' ? (result.error instanceof Error ? result.error.name : 'Error') : undefined);
  return result;
}

async function guarded<T>(runner: HookRunner, scope: HookScope, call: GuardedCall<T>, span: ExecuteToolSpan | undefined): Promise<GuardResult<T>> {
  // Whole literals, no spreads (on Node 20 each spread makes a hidden class of its own: ~1 µs a call).
  const options: RunOptions = optionsOf(call.signal, call.checkInput, span?.context);
  const pre = await runner.pre({ workspace: scope.workspace, agent_id: scope.agentId, tool_call_id: call.toolCallId, tool_name: call.toolName, input: call.input }, options);
  scope.onOutcome?.(pre);
  if (pre.decision === 'deny') {
    return { kind: 'blocked', error: new ToolCallBlockedError('denied', pre.reason, { toolName: call.toolName, toolCallId: call.toolCallId, outcome: pre }) };
  }

  let settled: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    settled = { ok: true, value: await (span === undefined ? call.execute(pre) : span.run(() => call.execute(pre))) };
  } catch (error) {
    settled = { ok: false, error };
  }

  // The post request's `input` is what the tool ran with; the chain's value is already parsed, so a
  // string is passed as its JSON text to survive the parse rule unchanged.
  const ranWith = typeof pre.input === 'string' ? JSON.stringify(pre.input) : pre.input;
  const post = await runner.post(
    {
      workspace: scope.workspace,
      agent_id: scope.agentId,
      tool_call_id: call.toolCallId,
      tool_name: call.toolName,
      input: ranWith,
      output: settled.ok ? outputAsJson(settled.value, call.toolName) : call.errorText(settled.error),
      is_error: !settled.ok,
    },
    optionsOf(call.signal, undefined, span?.context),
  );
  scope.onOutcome?.(post);

  const details = { toolName: call.toolName, toolCallId: call.toolCallId, outcome: post };
  if (post.decision === 'deny') {
    return { kind: 'blocked', error: new ToolCallBlockedError('output_denied', outputAsText(post.output), { ...details, cause: settled.ok ? undefined : settled.error }) };
  }
  if (!post.replaced) return settled.ok ? { kind: 'result', value: settled.value } : { kind: 'thrown', error: settled.error };
  if (post.is_error) {
    return { kind: 'blocked', error: new ToolCallBlockedError('error_replaced', outputAsText(post.output), { ...details, cause: settled.ok ? undefined : settled.error }) };
  }
  return { kind: 'replaced', output: post.output, outcome: post };
}

const NO_OPTIONS: RunOptions = {};

function optionsOf(signal: AbortSignal | undefined, checkInput: RunOptions['checkInput'], trace: Context | undefined): RunOptions {
  if (trace !== undefined) {
    // Telemetry is recording: one more field is no matter here.
    const options: { signal?: AbortSignal; checkInput?: NonNullable<RunOptions['checkInput']>; trace_context: Context } = { trace_context: trace };
    if (signal !== undefined) options.signal = signal;
    if (checkInput !== undefined) options.checkInput = checkInput;
    return options;
  }
  if (signal === undefined) return checkInput === undefined ? NO_OPTIONS : { checkInput };
  return checkInput === undefined ? { signal } : { signal, checkInput };
}
