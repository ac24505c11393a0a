import { asSchema, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { JsonValue } from '../../contract/json.js';
import type { HookRunner } from '../../runner/runner.js';
import { guardToolCall, type HookScope } from '../shared/guard.js';
import { inputAsText } from '../shared/json.js';
import { describeSchemaError } from '../shared/schema-error.js';

/** Options for {@link withHooks}: where the calls happen, and an optional audit callback. */
export type WithHooksOptions = HookScope;

/**
 * The same tool set with every tool's `execute` run through the hook chain. Tools without `execute`
 * (provider-executed tools, tools answered by the client) are returned as they are.
 *
 * - `pre_tool_use` sees `tool_call_id` = the SDK's tool call id and `input` = the arguments the SDK
 *   parsed and validated. `deny` → `execute` throws a {@link ToolCallBlockedError} whose message is
 *   the reason: the SDK records a `tool-error` part and sends the model an `error-text` tool result.
 *   `modify` → the rewrite is validated against the tool's `inputSchema` as the SDK validates the
 *   model's input (a rewrite it rejects is that hook's failure, under its `on_failure`); `execute`
 *   runs with the validated value.
 * - `post_tool_use` sees the result (or, when `execute` threw, the error's message with
 *   `is_error: true`). `replace` → the SDK gets the replacement as the tool's result (an `is_error`
 *   replacement becomes a `tool-error` with the replacement as its text); `deny` → a `tool-error`
 *   with the reason. Untouched results and errors are passed on as they were (same object).
 * - A streaming `execute` (an async iterable) is drained: its preliminary results are withheld —
 *   they never went through the post hooks — and the last one is the result.
 *
 * Works with `generateText`, `streamText`, agents and multi-step loops: it only changes `execute`.
 *
 * @example
 * const tools = withHooks({ shell }, runner, { workspace: '/repo', agentId: 'agent-1' });
 * const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt });
 */
export function withHooks<TOOLS extends ToolSet>(tools: TOOLS, runner: HookRunner, options: WithHooksOptions): TOOLS {
  const wrapped: Record<string, AnyTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    wrapped[name] = hookTool(name, tool, runner, options);
  }
  // Each entry keeps its own tool's type: only `execute` is replaced, by a function of the same shape.
  return wrapped as TOOLS;
}

/** Any member of a tool set. */
type AnyTool = ToolSet[string];

function hookTool(name: string, tool: AnyTool, runner: HookRunner, scope: HookScope): AnyTool {
  const execute = tool.execute;
  if (execute === undefined) return tool;
  const schema = asSchema(tool.inputSchema);

  const hooked = async (input: unknown, options: ToolExecutionOptions): Promise<unknown> => {
    // The last rewrite the schema accepted, with the value the schema produced (defaults,
    // transforms): the chain's final input is that same object unless a later hook failed open.
    let accepted: { raw: JsonValue; value: unknown } | undefined;
    const result = await guardToolCall(runner, scope, {
      toolName: name,
      toolCallId: options.toolCallId,
      input: inputAsText(input, name),
      signal: options.abortSignal,
      checkInput: schema.validate
        ? async (rewritten) => {
            const checked = await schema.validate!(rewritten);
            if (!checked.success) return describeSchemaError(checked.error);
            accepted = { raw: rewritten, value: checked.value };
            return undefined;
          }
        : undefined,
      execute: async (allowed) => {
        const args = !allowed.modified ? input : accepted?.raw === allowed.input ? accepted.value : await revalidate(allowed.input);
        return lastValue(execute.call(tool, args, options));
      },
      errorText,
    });
    switch (result.kind) {
      case 'result':
        return result.value;
      case 'replaced':
        return result.output;
      case 'thrown':
        throw result.error;
      case 'blocked':
        throw result.error;
    }
  };

  /** Only reached if a hook failed open after the accepted rewrite; validate what the chain kept. */
  async function revalidate(value: JsonValue): Promise<unknown> {
    if (!schema.validate) return value;
    const checked = await schema.validate(value);
    if (checked.success) return checked.value;
    throw new TypeError(`the rewritten input of tool "${name}" does not match its input schema: ${describeSchemaError(checked.error)}`);
  }

  return { ...tool, execute: hooked };
}

/** The final result of an `execute`: awaited, or the last value of a streaming (async iterable) one. */
async function lastValue(result: unknown): Promise<unknown> {
  if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
    let last: unknown;
    for await (const value of result as AsyncIterable<unknown>) last = value;
    return last;
  }
  return result;
}

/** The text the SDK sends the model for a thrown error (`getErrorMessage` in `@ai-sdk/provider`). */
function errorText(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}
