import { context as contextApi, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { HookCall } from '../contract/call.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';
import { ATTR, SEMCONV, SPAN } from './names.js';
import { payloadText } from './payload.js';
import type { Instruments } from './sources.js';
import { telemetryFailed } from './warn.js';

/** What telemetry says about a hook besides its trail entry: fixed per hook. */
export interface HookTraits {
  /** How it runs (`metered`, `worker`, `process`, `in-process`), or its transport's kind when that does not say. */
  readonly isolation: string;
}

/** What a chain's telemetry starts from. */
export interface ChainStart {
  readonly call: HookCall;
  readonly budgetMs: number | undefined;
  /** The parent: the caller's context (a gateway's span, a remote parent), else the active one. */
  readonly parent: Context | undefined;
  /** `performance.now()` at the chain's start. */
  readonly started: number;
  /** Record the tool's input and output (after the chain's rewrites). */
  readonly payloads: boolean;
}

/**
 * One chain's spans and metrics: a `basis_hooks.chain` span from the chain's start to its decision, a
 * `basis_hooks.hook` child per hook (made when the hook's entry is recorded, spanning the time the
 * runner measured), and the decision, failure and duration metrics. Made only while a tracer or a
 * meter is listening; it never throws into the chain (a failing SDK is reported once, on stderr).
 *
 * Cost, with the SDK: attributes are set on a span once it has started — the SDK checks them once
 * that way, twice when they are given to `startSpan` (so a sampler sees only the span's name, kind and
 * parent); no hook span is made under a chain span that is not recording (sampled out); decisions are
 * counted in place and observed at collection ({@link DecisionTally}).
 */
export class ChainTelemetry {
  readonly #tracer: Tracer | undefined;
  readonly #instruments: Instruments | undefined;
  readonly #call: HookCall;
  readonly #payloads: boolean;
  /** The chain's span while it records (undefined without a tracer, or sampled out). */
  readonly #span: Span | undefined;
  readonly #parent: Context;
  #hookParent: Context | undefined;

  private constructor(tracer: Tracer | undefined, instruments: Instruments | undefined, start: ChainStart) {
    this.#tracer = tracer;
    this.#instruments = instruments;
    this.#call = start.call;
    this.#payloads = start.payloads;
    this.#parent = start.parent ?? contextApi.active();
    this.#span = tracer === undefined ? undefined : startChainSpan(tracer, start, this.#parent);
  }

  /** The chain's telemetry, or undefined when the SDK failed to start its span (reported once). */
  static start(tracer: Tracer | undefined, instruments: Instruments | undefined, start: ChainStart): ChainTelemetry | undefined {
    try {
      return new ChainTelemetry(tracer, instruments, start);
    } catch (error) {
      telemetryFailed(error);
      return undefined;
    }
  }

  /** Record one hook's decision (enforcing, or a shadow's when it lands). */
  hook(traits: HookTraits, entry: TrailEntry, cold: boolean, fuel: number | undefined): void {
    try {
      const chain = this.#span;
      if (chain !== undefined && this.#tracer !== undefined) {
        const end = performance.now();
        this.#hookParent ??= trace.setSpan(this.#parent, chain);
        const span = this.#tracer.startSpan(SPAN.hook, { kind: SpanKind.INTERNAL, startTime: end - entry.ms }, this.#hookParent);
        // Flags only when set (each attribute costs the SDK a check and a copy).
        const attributes: Attributes = { [ATTR.hookName]: entry.hook, [ATTR.decision]: entry.decision, [ATTR.isolation]: traits.isolation, [ATTR.durationMs]: entry.ms };
        if (entry.shadow === true) attributes[ATTR.shadow] = true;
        if (cold) attributes[ATTR.cold] = true;
        if (entry.reason !== undefined) attributes[ATTR.reason] = entry.reason;
        if (fuel !== undefined) attributes[ATTR.fuelUsed] = fuel;
        if (entry.budget !== undefined) attributes[ATTR.budgetLeftMs] = entry.budget.left_ms;
        const failure = entry.failure;
        if (failure !== undefined) {
          attributes[ATTR.failureCode] = failure.code;
          attributes[SEMCONV.errorType] = failure.code;
          if (entry.policy !== undefined) attributes[ATTR.failurePolicy] = entry.policy;
          // A failure's message may quote what the hook printed, and a hook may echo its input.
          if (this.#payloads) attributes[ATTR.failureMessage] = failure.message;
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.code });
        }
        span.setAttributes(attributes);
        span.end(end);
      }
      const instruments = this.#instruments;
      if (instruments !== undefined) {
        instruments.hookDecisions.add(entry.hook, this.#call.tool_name, entry.decision);
        if (entry.failure !== undefined) instruments.hookFailures.add(1, { [ATTR.hookName]: entry.hook, [ATTR.failureCode]: entry.failure.code });
        instruments.hookDuration.record(entry.ms / 1000, { [ATTR.hookName]: entry.hook, [ATTR.cold]: cold });
      }
    } catch (error) {
      telemetryFailed(error);
    }
  }

  /**
   * Record the chain's decision and end its span. `input` is the tool's input as the chain left it
   * (rewritten by any `modify`, also when a later hook denied): with payloads, that is what is recorded,
   * never the input as the model first wrote it.
   */
  end(outcome: Outcome, ms: number, input: JsonValue): void {
    try {
      const span = this.#span;
      if (span !== undefined) {
        const attributes: Attributes = { [ATTR.decision]: outcome.decision };
        if (outcome.event === 'pre_tool_use') {
          if (outcome.decision === 'deny') attributes[ATTR.reason] = outcome.reason;
          else attributes[ATTR.modified] = outcome.modified;
          if (this.#payloads) attributes[SEMCONV.genAiToolCallArguments] = payloadText(input);
        } else {
          attributes[ATTR.replaced] = outcome.replaced;
          if (outcome.decision === 'deny' && typeof outcome.output === 'string') attributes[ATTR.reason] = outcome.output;
          if (this.#payloads) attributes[SEMCONV.genAiToolCallResult] = payloadText(outcome.output);
        }
        span.setAttributes(attributes);
        span.end(performance.now());
      }
      this.#instruments?.chainDuration.record(ms / 1000, { [ATTR.event]: outcome.event, [SEMCONV.genAiToolName]: this.#call.tool_name, [ATTR.decision]: outcome.decision });
    } catch (error) {
      telemetryFailed(error);
    }
  }
}

/** The chain's span, when it records (a sampled-out one is dropped: no attribute, no child). */
function startChainSpan(tracer: Tracer, start: ChainStart, parent: Context): Span | undefined {
  const { call } = start;
  const span = tracer.startSpan(SPAN.chain, { kind: SpanKind.INTERNAL, startTime: start.started }, parent);
  if (!span.isRecording()) return undefined;
  const attributes: Attributes = {
    [SEMCONV.genAiToolName]: call.tool_name,
    [SEMCONV.genAiToolCallId]: call.tool_call_id,
    [SEMCONV.genAiAgentId]: call.agent_id,
    [ATTR.event]: call.event,
    [ATTR.workspace]: call.workspace,
  };
  if (start.budgetMs !== undefined) attributes[ATTR.budgetMs] = start.budgetMs;
  span.setAttributes(attributes);
  return span;
}
