import type { Context } from '@opentelemetry/api';
import type { JsonValue } from '../../contract/json.js';
import type { PostToolUseOutcome, PreToolUseOutcome } from '../../contract/outcome.js';
import { compileToolMatcher } from '../../runner/matcher.js';
import type { HookRunner } from '../../runner/runner.js';
import { objectInputCheck } from '../shared/object-input.js';
import { isErrorOf, isToolResult, outputOf, refusal, resultAfterHooks, type ResultShapeOptions, type ToolResult } from './tool-call.js';

/** Who a call is made for: the hooks' `agent_id` and `workspace`. */
export interface Identity {
  readonly agentId: string;
  readonly workspace: string;
}

/** One tool call as the hooks see it. */
export interface HookedCall {
  readonly identity: Identity;
  /** The basis `tool_call_id`: the client's JSON-RPC id, as a string. */
  readonly toolCallId: string;
  readonly name: string;
  /** The arguments the tool runs with (after any modify, once the pre chain ran). */
  readonly input: JsonValue;
  /** The trace the chains run in (the gateway's span for the call), while an OpenTelemetry SDK listens. */
  readonly trace?: Context | undefined;
}

/** What the pre chain decided, in the gateway's terms. */
export type PreVerdict =
  | { readonly kind: 'refused'; readonly result: ToolResult }
  | { readonly kind: 'allowed'; readonly input: JsonValue; readonly modified: boolean };

/** MCP's tool arguments are JSON objects: what a `modify` must rewrite them to. */
const MCP_INPUT = objectInputCheck('MCP');

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The hook chain as the gateway runs it on a tool call: the pre chain before the server sees the
 * call, the post chain on its result before the client does. A chain that cannot run (the runner
 * closed, a hook that cannot be loaded) refuses the call or withholds the result: fail closed.
 */
export class ToolHooks {
  readonly #runner: HookRunner;
  readonly #postMatchers: ReadonlyArray<(tool: string) => boolean>;
  readonly #preMatchers: ReadonlyArray<(tool: string) => boolean>;
  /** Whether a chain with no hook for the tool must still run (it is audited, or its outcome reported). */
  readonly #observed: boolean;
  readonly #onOutcome: ((outcome: PreToolUseOutcome | PostToolUseOutcome, tool: string) => void) | undefined;

  constructor(runner: HookRunner, options: { onOutcome?: ((outcome: PreToolUseOutcome | PostToolUseOutcome, tool: string) => void) | undefined } = {}) {
    this.#runner = runner;
    this.#postMatchers = runner.hooks.filter((h) => h.event === 'post_tool_use').map((h) => compileToolMatcher(h.tools));
    this.#preMatchers = runner.hooks.filter((h) => h.event === 'pre_tool_use').map((h) => compileToolMatcher(h.tools));
    this.#onOutcome = options.onOutcome;
    this.#observed = runner.audited || options.onOutcome !== undefined;
  }

  /** Whether any post hook runs for `tool` (when none does, its result is relayed as it came). */
  hasPost(tool: string): boolean {
    return this.#postMatchers.some((matches) => matches(tool));
  }

  /** Whether any post hook runs at all (a result whose tool is unknown could need them). */
  get anyPost(): boolean {
    return this.#postMatchers.length > 0;
  }

  /** Run the pre chain on `call`. */
  async pre(call: HookedCall, signal: AbortSignal): Promise<PreVerdict> {
    // No hook for this tool, and nobody watching the chain (no audit, no trail, no trace): what it
    // would decide is known (allow, unchanged); the runner is not asked.
    if (!this.#observed && call.trace === undefined && !this.#preMatchers.some((matches) => matches(call.name))) return { kind: 'allowed', input: call.input, modified: false };
    let outcome: PreToolUseOutcome;
    try {
      outcome = await this.#runner.pre(
        { workspace: call.identity.workspace, agent_id: call.identity.agentId, tool_call_id: call.toolCallId, tool_name: call.name, input: call.input },
        // MCP's tool arguments are objects: a rewrite to anything else fails that hook.
        { signal, checkInput: MCP_INPUT, trace_context: call.trace },
      );
    } catch (error) {
      return { kind: 'refused', result: refusal(`basis-hooks: the hooks could not run (${describe(error)}); the call was not made (fail closed)`) };
    }
    this.#onOutcome?.(outcome, call.name);
    if (outcome.decision === 'deny') return { kind: 'refused', result: refusal(outcome.reason) };
    return { kind: 'allowed', input: outcome.input, modified: outcome.modified };
  }

  /**
   * Run the post chain on a tool's result: what the client receives (the result unchanged — exactly
   * what the hooks saw — or what they replaced it with, or a refusal).
   */
  async post(call: HookedCall, result: ToolResult, signal: AbortSignal, shape: ResultShapeOptions = {}): Promise<ToolResult> {
    if (!this.hasPost(call.name)) return result;
    if (!isToolResult(result, shape)) {
      return refusal(`basis-hooks: the server's answer to "${call.name}" is not a tool result, so the post_tool_use hooks could not run on it; it was withheld (fail closed)`);
    }
    let outcome: PostToolUseOutcome;
    try {
      outcome = await this.#runner.post(
        {
          workspace: call.identity.workspace,
          agent_id: call.identity.agentId,
          tool_call_id: call.toolCallId,
          tool_name: call.name,
          input: call.input,
          output: outputOf(result),
          is_error: isErrorOf(result),
        },
        { signal, trace_context: call.trace },
      );
    } catch (error) {
      return refusal(`basis-hooks: the post_tool_use hooks could not run (${describe(error)}); the output was withheld (fail closed)`);
    }
    this.#onOutcome?.(outcome, call.name);
    return resultAfterHooks(outcome, shape) ?? result;
  }
}
