import { context as contextApi, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { EXECUTE_TOOL, SEMCONV } from './names.js';
import { GLOBAL_TELEMETRY } from './sources.js';
import { telemetryFailed } from './warn.js';

/**
 * The GenAI tool span (`execute_tool {tool}`, INTERNAL, `gen_ai.operation.name = execute_tool`), where
 * an integration wraps the whole tool call: the pre chain, the tool itself and the post chain are its
 * children (the tool runs in its context, so a tool that records spans nests them here too, when the
 * application registered a context manager). Made only while an SDK listens.
 */
export class ExecuteToolSpan {
  readonly #span: Span;
  readonly #context: Context;

  private constructor(span: Span, parent: Context) {
    this.#span = span;
    this.#context = trace.setSpan(parent, span);
  }

  /** The span of one tool call, or undefined while no SDK is registered. */
  static start(tool: string, toolCallId: string, agentId: string): ExecuteToolSpan | undefined {
    try {
      const tracer = GLOBAL_TELEMETRY.tracer();
      if (tracer === undefined) return undefined;
      const parent = contextApi.active();
      const attributes = { [SEMCONV.genAiOperationName]: EXECUTE_TOOL, [SEMCONV.genAiToolName]: tool, [SEMCONV.genAiToolCallId]: toolCallId, [SEMCONV.genAiAgentId]: agentId };
      return new ExecuteToolSpan(tracer.startSpan(`${EXECUTE_TOOL} ${tool}`, { kind: SpanKind.INTERNAL, attributes }, parent), parent);
    } catch (error) {
      telemetryFailed(error);
      return undefined;
    }
  }

  /** The context the chains run in. */
  get context(): Context {
    return this.#context;
  }

  /** Run the tool in the span's context. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return contextApi.with(this.#context, fn);
  }

  /** End the span: `errorType` names why the call failed (a tool error, a hook's refusal), if it did. */
  end(errorType?: string): void {
    try {
      if (errorType !== undefined) {
        this.#span.setAttribute(SEMCONV.errorType, errorType);
        this.#span.setStatus({ code: SpanStatusCode.ERROR });
      }
      this.#span.end();
    } catch (error) {
      telemetryFailed(error);
    }
  }
}
