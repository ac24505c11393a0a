import { randomUUID } from 'node:crypto';
import type { FunctionTool, RunContext, Tool } from '@openai/agents';
import type { JsonValue } from '../../contract/json.js';
import type { HookRunner } from '../../runner/runner.js';
import type { ToolCallBlockedError } from '../shared/errors.js';
import { guardToolCall, type HookScope } from '../shared/guard.js';
import { inputCheck } from './input-check.js';

/** Options for {@link withHooks}: where the calls happen, and an optional audit callback. */
export type WithHooksOptions = HookScope;

// A function tool of any context, parameters and result — the SDK's own `AnyFunctionTool`. Only a
// constraint: the generics below hand the caller back its tools' exact types.
type AnyFunctionTool = FunctionTool<any, any, any>;
type InvokeDetails = Parameters<AnyFunctionTool['invoke']>[2];

/**
 * The same tools with every function tool's calls run through the hook chain; other tools (hosted
 * tools, computer, shell, apply-patch) are returned as they are — the SDK does not execute those
 * through a function tool's `invoke`.
 *
 * Each function tool is wrapped at `invoke`, the one entry point the runner calls with the model's raw
 * arguments: tool guardrails, the SDK's documented veto, can only allow, reject with a message or
 * throw — they cannot rewrite the input nor put a value in place of the output, and splitting one
 * chain over the SDK's two guardrail phases would have to carry its verdict between them.
 *
 * - `pre_tool_use` sees `tool_call_id` = the call's `callId` and `input` = the model's arguments (the
 *   contract's parse rule applies to the raw text). `deny` → the tool does not run, and the model
 *   reads the reason exactly as the SDK shows a guardrail's `rejectContent`: as the function output,
 *   or, for a tool with an `outputSchema`, through its `errorFunction` (without one the SDK fails
 *   the run, and so does this). `modify` → the rewrite is checked against the tool's JSON Schema
 *   `parameters` (a rewrite it rejects is that hook's failure, under its `on_failure`) and the tool
 *   is invoked with its JSON text, which the tool's own parser validates again.
 * - `post_tool_use` sees the result the tool's `invoke` returned; a tool without an `outputSchema`
 *   turns its own exceptions into an ordinary text result (its `errorFunction`) before this wrapper
 *   sees it, so `is_error` is true only for errors `invoke` throws. `replace` → the model reads the
 *   replacement; `deny`, or a replacement marked `is_error` → shown as a pre-call `deny` is.
 * - The tool's own guardrails, approval, timeout and `errorFunction` stay as they were: input
 *   guardrails and approval come before the hooks, output guardrails after.
 *
 * @example
 * const agent = new Agent({ name: 'ops', tools: withHooks([shell], runner, { workspace: '/repo', agentId: 'ops' }) });
 * const result = await run(agent, 'tidy up the branch');
 */
export function withHooks<T extends readonly Tool<any>[]>(tools: T, runner: HookRunner, options: WithHooksOptions): T {
  // Each element keeps its type: a function tool's copy differs only by `invoke`, of the same type.
  return tools.map((tool) => (tool.type === 'function' ? hookTool(tool, runner, options) : tool)) as unknown as T;
}

/**
 * One function tool through the hook chain (see {@link withHooks}). Returns a copy — every property,
 * symbol-keyed and non-enumerable ones included — with only `invoke` replaced.
 *
 * @example
 * const hooked = hookTool(tool({ name: 'shell', description, parameters, execute }), runner, scope);
 */
export function hookTool<T extends AnyFunctionTool>(tool: T, runner: HookRunner, scope: HookScope): T {
  const original = tool.invoke;
  const checkInput = inputCheck(tool.parameters);

  const invoke = async (runContext: RunContext<unknown>, input: string, details?: InvokeDetails): Promise<unknown> => {
    const result = await guardToolCall(runner, scope, {
      toolName: tool.name,
      // A call outside a run (no tool call item) still needs an id the trail can name.
      toolCallId: details?.toolCall?.callId ?? `local-${randomUUID()}`,
      input,
      signal: details?.signal,
      checkInput,
      execute: async (allowed) => original.call(tool, runContext, allowed.modified ? argumentsText(allowed.input) : input, details),
      errorText: (error) => (error instanceof Error ? error.message : String(error)),
    });
    switch (result.kind) {
      case 'result':
        return result.value;
      case 'replaced':
        return result.output;
      case 'thrown':
        throw result.error;
      case 'blocked':
        return rejection(tool, runContext, result.error, details);
    }
  };

  const copy = Object.create(Object.getPrototypeOf(tool), Object.getOwnPropertyDescriptors(tool)) as T;
  Object.defineProperty(copy, 'invoke', { value: invoke, writable: true, enumerable: true, configurable: true });
  return copy;
}

/** The arguments text a tool is invoked with: a JSON value as its JSON, a string (raw text) as itself. */
function argumentsText(input: JsonValue): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/**
 * What the model reads for a blocked call — the SDK's own handling of a guardrail's `rejectContent`:
 * the message itself as the output; for a tool with an `outputSchema`, its `errorFunction`'s
 * schema-shaped fallback, and without one the error is thrown (the SDK fails the run).
 */
async function rejection(tool: AnyFunctionTool, runContext: RunContext<unknown>, error: ToolCallBlockedError, details: InvokeDetails): Promise<unknown> {
  if (!tool.outputSchema) return error.message;
  if (!tool.errorFunction) throw error;
  return tool.errorFunction(runContext, error, details);
}
