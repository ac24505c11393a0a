/**
 * The names basis-hooks telemetry uses: span names, attribute keys and metric names. Where an
 * OpenTelemetry semantic convention has the concept (GenAI, MCP, `error.type`), its name is used —
 * spelled out here rather than imported, so the library needs nothing but `@opentelemetry/api`; a test
 * holds each to the `@opentelemetry/semantic-conventions` package. Everything else is ours, under
 * `basis_hooks.*`.
 */

/** The instrumentation scope of every tracer and meter the library asks for. */
export const SCOPE_NAME = 'basis-hooks';

/** Span names. */
export const SPAN = {
  /** One run of the chain at one event (`pre_tool_use` or `post_tool_use`). */
  chain: 'basis_hooks.chain',
  /** One hook's evaluation, a child of its chain's span. */
  hook: 'basis_hooks.hook',
  /** GenAI's tool span, where an integration wraps the tool call itself (`execute_tool {tool}`). */
  executeTool: 'execute_tool',
} as const;

/** Semantic-convention attribute keys (OpenTelemetry GenAI, MCP, general). */
export const SEMCONV = {
  genAiOperationName: 'gen_ai.operation.name',
  genAiToolName: 'gen_ai.tool.name',
  genAiToolCallId: 'gen_ai.tool.call.id',
  genAiAgentId: 'gen_ai.agent.id',
  /** Opt-in (sensitive): the tool's arguments. Recorded only with `telemetry_payloads`. */
  genAiToolCallArguments: 'gen_ai.tool.call.arguments',
  /** Opt-in (sensitive): the tool's result. Recorded only with `telemetry_payloads`. */
  genAiToolCallResult: 'gen_ai.tool.call.result',
  mcpMethodName: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  mcpSessionId: 'mcp.session.id',
  jsonrpcRequestId: 'jsonrpc.request.id',
  rpcResponseStatusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  errorType: 'error.type',
} as const;

/** The GenAI operation of a tool span. */
export const EXECUTE_TOOL = 'execute_tool';

/** Our own attribute keys. */
export const ATTR = {
  /** `pre_tool_use` or `post_tool_use`. */
  event: 'basis_hooks.event',
  workspace: 'basis_hooks.workspace',
  /** The hooks selected for the call, in the order they run. */
  chainHooks: 'basis_hooks.chain.hooks',
  /** The event's budget in ms, when the chain has one. */
  budgetMs: 'basis_hooks.budget_ms',
  hookName: 'basis_hooks.hook.name',
  /** What took effect (a failed hook: its policy's decision; a shadow: what it would have done). */
  decision: 'basis_hooks.decision',
  /** The hook's reason (deny, modify, replace) or the chain's deny reason. */
  reason: 'basis_hooks.reason',
  failureCode: 'basis_hooks.failure.code',
  /** A failure's message: only with `telemetry_payloads` (it may quote what the hook printed). */
  failureMessage: 'basis_hooks.failure.message',
  /** The `on_failure` policy that decided for a failed hook. */
  failurePolicy: 'basis_hooks.failure.policy',
  /** How the hook runs: `metered` / `worker` (components), `process`, `in-process`. */
  isolation: 'basis_hooks.isolation',
  /** The transport kind: `component`, `subprocess`, `interceptor`, … */
  transport: 'basis_hooks.transport',
  /** A shadow hook (present only when true): observed, never enforced. */
  shadow: 'basis_hooks.shadow',
  /** The hook rewrote the input (a `modify` that took effect); on a chain: its input was rewritten. */
  modified: 'basis_hooks.modified',
  /** The hook replaced the output; on a chain: its output was replaced. */
  replaced: 'basis_hooks.replaced',
  /** The hook's first call in its runner (present only when true): it paid for what a first call pays (instantiation, JIT). */
  cold: 'basis_hooks.hook.cold',
  /** Fuel units the guest spent in the call (metered components). */
  fuelUsed: 'basis_hooks.fuel.used',
  /** What was left of the chain's budget when the hook started. */
  budgetLeftMs: 'basis_hooks.budget.left_ms',
  /** The runner's own measure of the hook, in ms (the trail's and the audit stream's `ms`; the hook span spans exactly this). */
  durationMs: 'basis_hooks.duration_ms',
} as const;

/** Metric instrument names. */
export const METRIC = {
  /** Counter: one per hook decision, by hook, tool and decision (a hook's event and mode are its own). */
  hookDecisions: 'basis_hooks.hook.decisions',
  /** Counter: one per failed hook, by hook and failure code. */
  hookFailures: 'basis_hooks.hook.failures',
  /** Histogram (s): how long each hook took, by hook and cold (its first call in its runner, or not). */
  hookDuration: 'basis_hooks.hook.duration',
  /** Histogram (s): how long each chain took, by event, tool and decision. */
  chainDuration: 'basis_hooks.chain.duration',
  /** MCP's server-side operation duration (s), recorded by the MCP gateway for the requests it serves. */
  mcpServerOperationDuration: 'mcp.server.operation.duration',
  /** MCP's client-side operation duration (s), recorded by the MCP gateway for the requests it forwards to the server. */
  mcpClientOperationDuration: 'mcp.client.operation.duration',
} as const;

/**
 * Histogram buckets in seconds, from 10 µs to 10 s: an in-thread hook answers in microseconds, a
 * process in milliseconds (OpenTelemetry's default buckets start at 5, made for milliseconds).
 */
export const DURATION_BUCKETS_S: readonly number[] = [
  0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
