import type { JsonValue } from '../../contract/json.js';
import { HookRunner } from '../../runner/runner.js';
import type { HookDefinition } from '../../runner/hook.js';
import type { InvokeResult, Transport } from '../../runner/transport.js';

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A transport whose `modify` must rewrite the input to a JSON object. MCP's `tools/call` arguments
 * and Claude Code's `tool_input` are objects: a hook that rewrites one into a string or an array has
 * not given an answer the client can use, so it has failed (`malformed_response`) — under its own
 * `on_failure`, recorded in the trail like any failure, before a later hook sees the bad input.
 */
export function requireObjectInput(transport: Transport, client: string): Transport {
  const wrapped: Transport = {
    kind: transport.kind,
    async invoke(request, context): Promise<InvokeResult> {
      const result = await transport.invoke(request, context);
      if (!result.ok || result.response.decision !== 'modify' || isJsonObject(result.response.input)) return result;
      const got = Array.isArray(result.response.input) ? 'an array' : result.response.input === null ? 'null' : `a ${typeof result.response.input}`;
      const failure = { code: 'malformed_response' as const, message: `"modify" must rewrite the input to a JSON object (${client} tool inputs are objects); got ${got}` };
      return result.logs === undefined ? { ok: false, failure } : { ok: false, failure, logs: result.logs };
    },
  };
  if (transport.check !== undefined) wrapped.check = () => transport.check?.() ?? Promise.resolve();
  if (transport.close !== undefined) wrapped.close = () => transport.close?.() ?? Promise.resolve();
  return wrapped;
}

/** The same chain, every hook's transport wrapped by {@link requireObjectInput}. Closing it closes the hooks. */
export function withObjectInputs(runner: HookRunner, client: string): HookRunner {
  return new HookRunner(
    runner.hooks.map((hook): HookDefinition => ({
      name: hook.name,
      event: hook.event,
      tools: hook.tools,
      on_failure: hook.on_failure,
      transport: requireObjectInput(hook.transport, client),
    })),
  );
}
