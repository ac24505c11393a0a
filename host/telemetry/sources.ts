import { readFileSync } from 'node:fs';
import {
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  trace,
  ValueType,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { DecisionTally } from './tally.js';
import { ATTR, DURATION_BUCKETS_S, METRIC, SCOPE_NAME, SEMCONV } from './names.js';

/**
 * Where a runner's spans and metrics go. By default, the OpenTelemetry API's global providers: a
 * no-op until the application registers an SDK (basis-hooks never starts one itself; its CLI does,
 * when asked to export). Or providers of the caller's own, used instead of the global ones.
 */
export interface TelemetryProviders {
  readonly tracer_provider?: TracerProvider | undefined;
  readonly meter_provider?: MeterProvider | undefined;
}

/** The library's instruments on one meter. */
export interface Instruments {
  /** Counted here, observed by the meter when it collects (see {@link DecisionTally}). */
  readonly hookDecisions: DecisionTally;
  readonly hookFailures: Counter;
  readonly hookDuration: Histogram;
  readonly chainDuration: Histogram;
  readonly mcpServerOperationDuration: Histogram;
  readonly mcpClientOperationDuration: Histogram;
}

// What the API hands out while no SDK is registered: compared by identity, per chain, so that a chain
// costs nothing when nobody listens, and starts being recorded as soon as an SDK is registered.
const NOOP_TRACER_PROVIDER: unknown = new ProxyTracerProvider().getDelegate();
const NOOP_METER: Meter = createNoopMeter();
/** Not a provider: makes the first lookup resolve. */
const UNSEEN: unknown = Symbol('unseen');
/**
 * Where every copy of the API (major version 1) keeps what was registered: nothing there, or no
 * `trace` and no `metrics` entry, means no SDK — read first, so that a chain in an application
 * without OpenTelemetry pays one property read. (The key is the API's cross-copy contract; when it is
 * absent or holds anything, the API itself is asked.)
 */
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');
const registry = globalThis as { [GLOBAL_KEY]?: { trace?: unknown; metrics?: unknown } };

let scopeVersion: string | undefined;

/** The package's version, the instrumentation scope's (read once, the first time telemetry is on). */
function version(): string {
  if (scopeVersion !== undefined) return scopeVersion;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    scopeVersion = typeof pkg.version === 'string' ? pkg.version : '';
  } catch {
    scopeVersion = '';
  }
  return scopeVersion;
}

/** The provider a global (proxy) tracer provider delegates to; a provider that is not a proxy is itself. */
function delegateOf(provider: TracerProvider): unknown {
  const proxy = provider as { getDelegate?: () => TracerProvider };
  return typeof proxy.getDelegate === 'function' ? proxy.getDelegate() : provider;
}

function makeInstruments(meter: Meter): Instruments {
  const duration = (name: string, description: string): Histogram =>
    meter.createHistogram(name, { description, unit: 's', valueType: ValueType.DOUBLE, advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_S] } });
  const tally = new DecisionTally();
  const decisions = meter.createObservableCounter(METRIC.hookDecisions, { description: 'Hook decisions, by hook, tool and decision', unit: '{decision}', valueType: ValueType.INT });
  decisions.addCallback((result) => tally.observe((count, hook, tool, decision) => result.observe(count, tool === undefined ? { [ATTR.hookName]: hook, [ATTR.decision]: decision, 'otel.metric.overflow': true } : { [ATTR.hookName]: hook, [SEMCONV.genAiToolName]: tool, [ATTR.decision]: decision })));
  return {
    hookDecisions: tally,
    hookFailures: meter.createCounter(METRIC.hookFailures, { description: 'Hook failures, by hook and failure code', unit: '{failure}', valueType: ValueType.INT }),
    hookDuration: duration(METRIC.hookDuration, 'How long each hook took, as the runner measured it'),
    chainDuration: duration(METRIC.chainDuration, 'How long each chain took, from its first hook to its decision'),
    mcpServerOperationDuration: duration(METRIC.mcpServerOperationDuration, 'MCP requests the gateway served, from the client\'s request to its answer'),
    mcpClientOperationDuration: duration(METRIC.mcpClientOperationDuration, 'MCP requests the gateway sent to the server, from the request to its answer'),
  };
}

/**
 * Resolves a tracer and the instruments, cheaply enough to ask on every chain: each lookup reads the
 * current provider and compares it with the last one seen; only a change (an SDK registered, another
 * provider set) makes a tracer or instruments. `undefined` means nobody is listening: record nothing.
 */
export class TelemetrySources {
  readonly #tracerProvider: TracerProvider | undefined;
  readonly #meterProvider: MeterProvider | undefined;
  #seenTracerDelegate: unknown = UNSEEN;
  #tracer: Tracer | undefined;
  #seenMeterProvider: unknown = UNSEEN;
  #instruments: Instruments | undefined;

  readonly #explicit: boolean;

  constructor(providers: TelemetryProviders = {}) {
    this.#tracerProvider = providers.tracer_provider;
    this.#meterProvider = providers.meter_provider;
    this.#explicit = providers.tracer_provider !== undefined || providers.meter_provider !== undefined;
  }

  /** Nothing can be listening: no provider of our own, and nothing registered with the API. One property read. */
  get quiet(): boolean {
    if (this.#explicit) return false;
    const registered = registry[GLOBAL_KEY];
    return registered === undefined || (registered.trace === undefined && registered.metrics === undefined);
  }

  /** The tracer to record spans with, or undefined while no SDK is registered. */
  tracer(): Tracer | undefined {
    if (this.#tracerProvider === undefined && registry[GLOBAL_KEY]?.trace === undefined) return undefined;
    const delegate = delegateOf(this.#tracerProvider ?? trace.getTracerProvider());
    if (delegate !== this.#seenTracerDelegate) {
      this.#seenTracerDelegate = delegate;
      this.#tracer = delegate === NOOP_TRACER_PROVIDER ? undefined : (delegate as TracerProvider).getTracer(SCOPE_NAME, version());
    }
    return this.#tracer;
  }

  /** The instruments to record metrics with, or undefined while no SDK is registered. */
  instruments(): Instruments | undefined {
    if (this.#meterProvider === undefined && registry[GLOBAL_KEY]?.metrics === undefined) return undefined;
    const provider = this.#meterProvider ?? metrics.getMeterProvider();
    if (provider !== this.#seenMeterProvider) {
      this.#seenMeterProvider = provider;
      const meter = provider.getMeter(SCOPE_NAME, version());
      this.#instruments = meter === NOOP_METER ? undefined : makeInstruments(meter);
    }
    return this.#instruments;
  }
}

/** The sources of the API's global providers, shared by every runner and integration that uses them. */
export const GLOBAL_TELEMETRY = new TelemetrySources();
