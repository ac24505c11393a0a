import { context as contextApi, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { EXECUTE_TOOL, SEMCONV } from '../../telemetry/names.js';
import { carrierOf, contextFromCarrier } from '../../telemetry/propagation.js';
import { GLOBAL_TELEMETRY, type Instruments } from '../../telemetry/sources.js';
import { telemetryFailed } from '../../telemetry/warn.js';
import type { Answer } from './upstream/link.js';

/*
 * Trace context through the gateway (MCP carries W3C `traceparent`/`tracestate` in `params._meta`,
 * SEP-414): the gateway continues the client's trace, and the upstream server continues the gateway's.
 *
 *   client span ─▶ tools/call {tool} (SERVER) ─┬─ basis_hooks.chain (pre) ─ basis_hooks.hook …
 *                                              ├─ tools/call {tool} (CLIENT) ─▶ the server's spans
 *                                              └─ basis_hooks.chain (post) ─ basis_hooks.hook …
 *
 * Everything the gateway does with trace context is here; the conversation calls
 * {@link ToolCallTrace.start} once per tools/call and hands the object the moments that matter.
 */

type Meta = Record<string, unknown>;

function metaOf(request: JSONRPCRequest): Meta | undefined {
  const meta = (request.params as { _meta?: unknown } | undefined)?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Meta) : undefined;
}

/** The parent a request names in `params._meta` (`traceparent`, `tracestate`), or undefined. */
export function traceParentOf(request: JSONRPCRequest): Context | undefined {
  return contextFromCarrier(metaOf(request));
}

/**
 * The request with `params._meta.traceparent` (and `tracestate`) naming the span of `context` —
 * replacing whatever the client sent there, keeping every other `_meta` field (`baggage` included).
 * The request itself when `context` has no span.
 */
export function withTraceMeta(request: JSONRPCRequest, context: Context): JSONRPCRequest {
  const fields = carrierOf(context);
  if (fields === undefined) return request;
  const meta: Meta = { ...metaOf(request), traceparent: fields.traceparent };
  if (fields.tracestate === undefined) delete meta['tracestate'];
  else meta['tracestate'] = fields.tracestate;
  return { ...request, params: { ...request.params, _meta: meta } };
}

/**
 * One `tools/call`'s trace through the gateway: the SERVER span from the client's request to its
 * answer (MCP semantic conventions: `tools/call {tool}`, `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`, `error.type = tool_error` on an `isError` result), the CLIENT span of the hop
 * to the server, and `mcp.server.operation.duration`. Made only while an SDK listens.
 */
export class ToolCallTrace {
  readonly #tool: string;
  readonly #span: Span | undefined;
  readonly #context: Context;
  readonly #instruments: Instruments | undefined;
  readonly #started = performance.now();
  #upstream: Span | undefined;
  /** `performance.now()` when the request went to the server. */
  #forwarded = 0;
  #ended = false;

  private constructor(request: JSONRPCRequest, tool: string, instruments: Instruments | undefined) {
    this.#tool = tool;
    this.#instruments = instruments;
    const parent = traceParentOf(request) ?? contextApi.active();
    const tracer = GLOBAL_TELEMETRY.tracer();
    this.#span = tracer?.startSpan(`tools/call ${tool}`, { kind: SpanKind.SERVER, startTime: this.#started, attributes: serverAttributes(request, tool) }, parent);
    this.#context = this.#span === undefined ? parent : trace.setSpan(parent, this.#span);
  }

  /** The trace of a tools/call, or undefined while no SDK is registered (the request then passes as it came). */
  static start(request: JSONRPCRequest, tool: string): ToolCallTrace | undefined {
    try {
      const instruments = GLOBAL_TELEMETRY.instruments();
      if (GLOBAL_TELEMETRY.tracer() === undefined && instruments === undefined) return undefined;
      return new ToolCallTrace(request, tool, instruments);
    } catch (error) {
      telemetryFailed(error);
      return undefined;
    }
  }

  /** The context the chains run in (their spans are children of the gateway's). */
  get context(): Context {
    return this.#context;
  }

  /** The request as forwarded to the server: a CLIENT span starts, and `_meta` names it as the parent. */
  forward(request: JSONRPCRequest): JSONRPCRequest {
    try {
      const tracer = GLOBAL_TELEMETRY.tracer();
      if (tracer === undefined || this.#span === undefined) return request;
      const attributes: Attributes = { [SEMCONV.mcpMethodName]: 'tools/call', [SEMCONV.genAiToolName]: this.#tool };
      this.#upstream = tracer.startSpan(`tools/call ${this.#tool}`, { kind: SpanKind.CLIENT, attributes }, this.#context);
      this.#forwarded = performance.now();
      return withTraceMeta(request, trace.setSpan(this.#context, this.#upstream));
    } catch (error) {
      telemetryFailed(error);
      return request;
    }
  }

  /** The server answered (before any post hook runs). */
  upstreamAnswered(message: Answer): void {
    const span = this.#upstream;
    if (span === undefined) return;
    this.#upstream = undefined;
    try {
      this.#clientDuration(markAnswer(span, message));
      span.end();
    } catch (error) {
      telemetryFailed(error);
    }
  }

  /** `mcp.client.operation.duration` of the hop: the gateway is the server's MCP client. */
  #clientDuration(errorType: string | undefined): void {
    const attributes: Attributes = { [SEMCONV.mcpMethodName]: 'tools/call', [SEMCONV.genAiToolName]: this.#tool };
    if (errorType !== undefined) attributes[SEMCONV.errorType] = errorType;
    this.#instruments?.mcpClientOperationDuration.record((performance.now() - this.#forwarded) / 1000, attributes);
  }

  /** The client got its answer (`message`), or none: the call was cancelled or the gateway stopped. */
  end(message: Answer | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      // A hop the server never answered (the call was cancelled, the server went away).
      if (this.#upstream !== undefined) {
        this.#upstream.setAttribute(SEMCONV.errorType, 'cancelled');
        this.#upstream.end();
        this.#upstream = undefined;
        this.#clientDuration('cancelled');
      }
      let errorType: string | undefined = 'cancelled';
      if (message === undefined) this.#span?.setAttribute(SEMCONV.errorType, errorType);
      else errorType = markAnswer(this.#span, message);
      this.#span?.end(performance.now());
      const attributes: Attributes = { [SEMCONV.mcpMethodName]: 'tools/call', [SEMCONV.genAiToolName]: this.#tool };
      if (errorType !== undefined) attributes[SEMCONV.errorType] = errorType;
      this.#instruments?.mcpServerOperationDuration.record((performance.now() - this.#started) / 1000, attributes);
    } catch (error) {
      telemetryFailed(error);
    }
  }
}

function serverAttributes(request: JSONRPCRequest, tool: string): Attributes {
  return {
    [SEMCONV.mcpMethodName]: 'tools/call',
    [SEMCONV.genAiToolName]: tool,
    [SEMCONV.genAiOperationName]: EXECUTE_TOOL,
    [SEMCONV.jsonrpcRequestId]: String(request.id),
  };
}

/**
 * Put an answer's outcome on a span: a JSON-RPC error's code, or `tool_error`; returns the `error.type`.
 * Never the error's message: a server's "invalid params" may quote the input it refused.
 */
function markAnswer(span: Span | undefined, message: Answer): string | undefined {
  if ('error' in message) {
    const code = String(message.error.code);
    span?.setAttributes({ [SEMCONV.rpcResponseStatusCode]: code, [SEMCONV.errorType]: code });
    span?.setStatus({ code: SpanStatusCode.ERROR });
    return code;
  }
  if (message.result.isError === true) {
    span?.setAttribute(SEMCONV.errorType, 'tool_error');
    span?.setStatus({ code: SpanStatusCode.ERROR });
    return 'tool_error';
  }
  return undefined;
}
