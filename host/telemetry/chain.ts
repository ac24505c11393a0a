import { context as contextApi, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type HrTime, type Span, type Tracer } from '@opentelemetry/api';
import type { HookCall } from '../contract/call.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';
import { hrTimeOf, wallOffsetMs } from './clock.js';
import { ATTR, SEMCONV, SPAN } from './names.js';
import { payloadText } from './payload.js';
import type { Instruments } from './sources.js';
import { telemetryFailed } from './warn.js';

/** What telemetry says about a hook besides its trail entry: fixed per hook, made once per runner. */
export interface HookTraits {
  /** How it runs (`metered`, `worker`, `process`, `in-process`), or its transport's kind when that does not say. */
  readonly isolation: string;
  /**
   * The hook-duration histogram's attribute sets, warm and cold: made once per hook (the SDK keeps the
   * set it is given and never changes it), not once per call.
   */
  readonly durationAttributes: { readonly warm: Attributes; readonly cold: Attributes };
}

/** The traits of a hook named `hook` that runs with `isolation`. */
export function hookTraits(hook: string, isolation: string): HookTraits {
  const attributes = (cold: boolean): Attributes => Object.freeze({ [ATTR.hookName]: hook, [ATTR.cold]: cold });
  return { isolation, durationAttributes: { warm: attributes(false), cold: attributes(true) } };
}

/** What a chain's telemetry starts from. */
export interface ChainStart {
  readonly call: HookCall;
  readonly budgetMs: number | undefined;
  /** The parent: the caller's context (a gateway's span, a remote parent), else the active one. */
  readonly parent: Context | undefined;
  /** `performance.now()` at the chain's start. */
  readonly started: number;
  /** Record the tool's input and output (after the chain's rewrites), failure messages and reasons. */
  readonly payloads: boolean;
  /** Record the hooks' reasons (deny, modify, replace) and the chain's deny reason. */
  readonly reasons: boolean;
}

/**
 * One chain's spans and metrics: a `basis_hooks.chain` span from the chain's start to its decision, a
 * `basis_hooks.hook` child per hook (made when the hook's entry is recorded, spanning the time the
 * runner measured), and the decision, failure and duration metrics. Made only while a tracer or a
 * meter is listening; it never throws into the chain (a failing SDK is reported once, on stderr).
 *
 * Cost, with the SDK (each measured: docs/observability.md#what-it-costs): attributes are set one by
 * one on a span once it has started — the SDK checks each once that way, twice when they are given
 * to `startSpan` (so a sampler sees only the span's name, kind and parent); span times are the
 * runner's own readings, handed over as `HrTime` (see clock.ts); no hook span is made under a chain
 * span that is not recording (sampled out); the hook-duration attribute sets are made once per hook;
 * decisions are counted in place and observed at collection ({@link DecisionTally}).
 */
export class ChainTelemetry {
  readonly #tracer: Tracer | undefined;
  readonly #instruments: Instruments | undefined;
  readonly #call: HookCall;
  readonly #payloads: boolean;
  readonly #reasons: boolean;
  readonly #started: number;
  /** The wall clock's offset from the performance timeline, read once for the chain's spans. */
  readonly #offset: number;
  /** The chain's span while it records (undefined without a tracer, or sampled out). */
  readonly #span: Span | undefined;
  readonly #parent: Context;
  #hookParent: Context | undefined;

  private constructor(tracer: Tracer | undefined, instruments: Instruments | undefined, start: ChainStart) {
    this.#tracer = tracer;
    this.#instruments = instruments;
    this.#call = start.call;
    this.#payloads = start.payloads;
    this.#reasons = start.reasons || start.payloads;
    this.#started = start.started;
    this.#parent = start.parent ?? contextApi.active();
    this.#offset = tracer === undefined ? 0 : wallOffsetMs();
    this.#span = tracer === undefined ? undefined : startChainSpan(tracer, start, this.#parent, hrTimeOf(start.started, this.#offset));
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
        const span = this.#tracer.startSpan(SPAN.hook, { kind: SpanKind.INTERNAL, startTime: hrTimeOf(end - entry.ms, this.#offset) }, this.#hookParent);
        // One by one (no attribute object to build and walk); flags only when set (each attribute costs the SDK a check and a copy).
        span.setAttribute(ATTR.hookName, entry.hook);
        span.setAttribute(ATTR.decision, entry.decision);
        span.setAttribute(ATTR.isolation, traits.isolation);
        span.setAttribute(ATTR.durationMs, entry.ms);
        if (entry.shadow === true) span.setAttribute(ATTR.shadow, true);
        else if (entry.failure === undefined) {
          // What took effect: a shadow's rewrite never does, and a failed hook's policy rewrites nothing.
          if (entry.decision === 'modify') span.setAttribute(ATTR.modified, true);
          else if (entry.decision === 'replace') span.setAttribute(ATTR.replaced, true);
        }
        if (cold) span.setAttribute(ATTR.cold, true);
        if (entry.reason !== undefined && this.#reasons) span.setAttribute(ATTR.reason, entry.reason);
        if (fuel !== undefined) span.setAttribute(ATTR.fuelUsed, fuel);
        if (entry.budget !== undefined) span.setAttribute(ATTR.budgetLeftMs, entry.budget.left_ms);
        const failure = entry.failure;
        if (failure !== undefined) {
          span.setAttribute(ATTR.failureCode, failure.code);
          span.setAttribute(SEMCONV.errorType, failure.code);
          if (entry.policy !== undefined) span.setAttribute(ATTR.failurePolicy, entry.policy);
          // A failure's message may quote what the hook printed, and a hook may echo its input.
          if (this.#payloads) span.setAttribute(ATTR.failureMessage, failure.message);
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.code });
        }
        span.end(hrTimeOf(end, this.#offset));
      }
      const instruments = this.#instruments;
      if (instruments !== undefined) {
        instruments.hookDecisions.add(entry.hook, this.#call.tool_name, entry.decision);
        if (entry.failure !== undefined) instruments.hookFailures.add(1, { [ATTR.hookName]: entry.hook, [ATTR.failureCode]: entry.failure.code });
        instruments.hookDuration.record(entry.ms / 1000, cold ? traits.durationAttributes.cold : traits.durationAttributes.warm);
      }
    } catch (error) {
      telemetryFailed(error);
    }
  }

  /**
   * Record the chain's decision and end its span, `ms` after its start (the runner's measure). `input`
   * is the tool's input as the chain left it (rewritten by any `modify`, also when a later hook
   * denied): with payloads, that is what is recorded, never the input as the model first wrote it.
   */
  end(outcome: Outcome, ms: number, input: JsonValue): void {
    try {
      const span = this.#span;
      if (span !== undefined) {
        span.setAttribute(ATTR.decision, outcome.decision);
        if (outcome.event === 'pre_tool_use') {
          if (outcome.decision === 'deny') {
            if (this.#reasons) span.setAttribute(ATTR.reason, outcome.reason);
          } else span.setAttribute(ATTR.modified, outcome.modified);
          if (this.#payloads) span.setAttribute(SEMCONV.genAiToolCallArguments, payloadText(input));
        } else {
          span.setAttribute(ATTR.replaced, outcome.replaced);
          if (outcome.decision === 'deny' && typeof outcome.output === 'string' && this.#reasons) span.setAttribute(ATTR.reason, outcome.output);
          if (this.#payloads) span.setAttribute(SEMCONV.genAiToolCallResult, payloadText(outcome.output));
        }
        span.end(hrTimeOf(this.#started + ms, this.#offset));
      }
      this.#instruments?.chainDuration.record(ms / 1000, { [ATTR.event]: outcome.event, [SEMCONV.genAiToolName]: this.#call.tool_name, [ATTR.decision]: outcome.decision });
    } catch (error) {
      telemetryFailed(error);
    }
  }
}

/** The chain's span, when it records (a sampled-out one is dropped: no attribute, no child). */
function startChainSpan(tracer: Tracer, start: ChainStart, parent: Context, startTime: HrTime): Span | undefined {
  const { call } = start;
  const span = tracer.startSpan(SPAN.chain, { kind: SpanKind.INTERNAL, startTime }, parent);
  if (!span.isRecording()) return undefined;
  span.setAttribute(SEMCONV.genAiToolName, call.tool_name);
  span.setAttribute(SEMCONV.genAiToolCallId, call.tool_call_id);
  span.setAttribute(SEMCONV.genAiAgentId, call.agent_id);
  span.setAttribute(ATTR.event, call.event);
  span.setAttribute(ATTR.workspace, call.workspace);
  if (start.budgetMs !== undefined) span.setAttribute(ATTR.budgetMs, start.budgetMs);
  return span;
}
