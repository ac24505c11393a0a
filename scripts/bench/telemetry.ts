/**
 * What OpenTelemetry costs a call, with a chain of one hook (the metered C guard, and an interceptor):
 *
 * - **API, no SDK** — the default runner while no SDK is registered (the library's state in every
 *   application that does not use OpenTelemetry) against the same chain with `telemetry: false`.
 *   Target: ≤ 0.2 µs added per call.
 * - **SDK, recording** — the same default runner with the official SDK registered: a TracerProvider
 *   with a BatchSpanProcessor and a MeterProvider with a PeriodicExportingMetricReader, whose exporters
 *   take the batches and drop them — what a call adds on its own path: a chain span, a hook span, two
 *   histogram records and a decision count. Target: ≤ 5 µs.
 * - **SDK, exporting** — the CLI's own export (host/cli/otlp-export.ts: the same processors with the
 *   OTLP/HTTP exporters) towards a loopback sink that answers 200: the recording plus serialising
 *   and sending every span and metric, on the same thread (amortised per call).
 *
 * Each pair is measured in interleaved batches (a batch of calls per runner in turn, the event loop let
 * run between batches so exports go out), and the added cost is the median of the per-round
 * differences: load drift on a shared machine falls on both alike.
 *
 *   node --import tsx --import ./scripts/bench/use-dist.mjs scripts/bench/telemetry.ts [--quick] [--json]
 *
 * Wired into `npm run bench` (its report follows the main one). Never asserted anywhere.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HookRunner, componentTransport, interceptorTransport, type RunnerOptions, type Transport } from '../../host/index.js';
import { ROOT_CONTEXT, metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { startOtlpExport } from '../../host/cli/otlp-export.js';
import { CALL, ROOT, guestById } from './guests.js';
import { round } from './stats.js';

const CACHE_DIR = join(ROOT, '.cache', 'bench');

/** One hook's figures: per-call medians, and the added cost (median of per-round differences). */
export interface TelemetryRow {
  readonly hook: string;
  /** `telemetry: false`, measured beside the API case. */
  readonly off_us: number;
  /** The default runner, no SDK registered. */
  readonly api_us: number;
  readonly api_added_us: number;
  /** The same, in this process's CPU time (what other load on a shared machine inflates least). */
  readonly api_added_cpu_us: number;
  /** `telemetry: false`, measured beside the tracing-only case. */
  readonly off_beside_tracing_us: number;
  /**
   * The default runner with the tracing SDK alone registered (a TracerProvider with a
   * BatchSpanProcessor whose exporter drops the batches, no MeterProvider): the issue's condition
   * for its 5 µs target, "an SDK and a batch span processor".
   */
  readonly tracing_us: number;
  readonly tracing_added_us: number;
  readonly tracing_added_cpu_us: number;
  /** `telemetry: false`, measured beside the recording case. */
  readonly off_beside_sdk_us: number;
  /** The default runner, the SDK recording (exporters that drop the batches). */
  readonly recording_us: number;
  readonly recording_added_us: number;
  readonly recording_added_cpu_us: number;
  /** `telemetry: false`, measured beside the exporting case. */
  readonly off_beside_export_us: number;
  /** The default runner, the SDK exporting over OTLP/HTTP. */
  readonly sdk_us: number;
  readonly sdk_added_us: number;
  readonly sdk_added_cpu_us: number;
}

export interface TelemetryBench {
  readonly rounds: number;
  readonly batch: number;
  readonly rows: readonly TelemetryRow[];
  /**
   * The official SDK's own floor for what a chain of one hook must record — two spans (one the
   * other's child), no attribute, and two histogram records — measured beside the recording case,
   * without a runner: per call, wall clock and CPU µs.
   */
  readonly sdk_floor: { readonly wall_us: number; readonly cpu_us: number };
  /** The same floor for the spans alone (two spans, one the other's child), beside the tracing-only case. */
  readonly sdk_floor_tracing: { readonly wall_us: number; readonly cpu_us: number };
  /** Spans and metric requests the sink received during the SDK phase (proof the exports ran). */
  readonly exported: { readonly trace_requests: number; readonly metric_requests: number; readonly bytes: number };
  readonly loadavg: readonly number[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Per-call µs of each runner (wall clock, and this process's CPU time), `rounds` interleaved batches of `batch` calls. */
async function interleaved(runners: readonly HookRunner[], rounds: number, batch: number): Promise<{ wall: number[][]; cpu: number[][] }> {
  const wall = runners.map(() => [] as number[]);
  const cpu = runners.map(() => [] as number[]);
  for (let r = -Math.ceil(rounds / 4); r < rounds; r++) {
    for (const [i, runner] of runners.entries()) {
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      for (let c = 0; c < batch; c++) await runner.pre(CALL);
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpuStart);
      if (r >= 0) {
        wall[i]?.push((elapsed * 1000) / batch);
        cpu[i]?.push((used.user + used.system) / batch);
      }
      await nextTurn();
    }
  }
  return { wall, cpu };
}

/** One phase's samples for one hook: per-batch µs per call off and on, and the added CPU µs per call. */
interface Phase {
  readonly off: number[];
  readonly on: number[];
  readonly cpu: number;
}

/** The added cost: the median of per-round differences (b − a). */
function added(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => (b[i] ?? Number.NaN) - x));
}

/** The SDK floor (see {@link TelemetryBench.sdk_floor}), through the globally registered providers. */
async function sdkFloor(rounds: number, batch: number, withMetrics = true): Promise<{ wall_us: number; cpu_us: number }> {
  const tracer = trace.getTracer('floor');
  const meter = metrics.getMeter('floor');
  const hookTime = meter.createHistogram('floor.hook', { unit: 's' });
  const chainTime = meter.createHistogram('floor.chain', { unit: 's' });
  const once = (): void => {
    const chain = tracer.startSpan('chain', {}, ROOT_CONTEXT);
    tracer.startSpan('hook', {}, trace.setSpan(ROOT_CONTEXT, chain)).end();
    if (!withMetrics) {
      chain.end();
      return;
    }
    hookTime.record(0.00001, { 'basis_hooks.hook.name': 'guard', 'basis_hooks.hook.cold': false });
    chain.end();
    chainTime.record(0.00002, { 'basis_hooks.event': 'pre_tool_use', 'gen_ai.tool.name': 'shell', 'basis_hooks.decision': 'allow' });
  };
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = -Math.ceil(rounds / 4); r < rounds; r++) {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    for (let c = 0; c < batch; c++) once();
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpuStart);
    if (r >= 0) {
      wall.push((elapsed * 1000) / batch);
      cpu.push((used.user + used.system) / batch);
    }
    await nextTurn();
  }
  return { wall_us: round(median(wall)), cpu_us: round(median(cpu)) };
}

/** A loopback OTLP sink: answers 200 to everything, counting what it got. */
async function sink(): Promise<{ server: Server; url: string; counts: { traces: number; metrics: number; bytes: number } }> {
  const counts = { traces: 0, metrics: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
    request.on('end', () => {
      if (request.url === '/v1/traces') counts.traces++;
      else if (request.url === '/v1/metrics') counts.metrics++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts };
}

/** Measure; `quick` takes a few samples only (smoke), not worth quoting. */
export async function benchTelemetry(quick = false, log: (line: string) => void = () => {}): Promise<TelemetryBench> {
  const rounds = quick ? 6 : 150;
  const batch = quick ? 20 : 200;
  const guard = componentTransport({ path: guestById('c').path, cache_dir: CACHE_DIR, isolation: 'metered' });
  await guard.load();
  const hooks: ReadonlyArray<{ label: string; transport: Transport }> = [
    { label: 'metered C guard (component)', transport: guard },
    { label: 'interceptor (TS guard)', transport: interceptorTransport((request) => (JSON.stringify(request.input).includes('--force') ? { decision: 'deny', reason: 'no force-push' } : { decision: 'allow' })) },
  ];
  const make = (transport: Transport, options: RunnerOptions): HookRunner => new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }], options);
  const pairs = hooks.map((h) => ({ label: h.label, off: make(h.transport, { telemetry: false }), on: make(h.transport, {}) }));
  const loads: number[] = [];
  /** One phase: every hook's pair interleaved, `telemetry: false` beside the default runner. */
  const phase = async (what: string): Promise<Phase[]> => {
    const out: Phase[] = [];
    for (const pair of pairs) {
      log(`telemetry: ${pair.label}, ${what} (${rounds} rounds × ${batch} calls, interleaved)`);
      const m = await interleaved([pair.off, pair.on], rounds, batch);
      out.push({ off: m.wall[0] ?? [], on: m.wall[1] ?? [], cpu: added(m.cpu[0] ?? [], m.cpu[1] ?? []) });
    }
    return out;
  };
  try {
    const noSdk = await phase('API without an SDK');
    loads.push(...loadavg());
    // Recording only: the SDK's processors as the CLI sets them up, with exporters that drop the batches.
    const drop: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
    const dropMetrics: PushMetricExporter = { export: (_metrics, done) => done({ code: 0 }), forceFlush: async () => {}, shutdown: async () => {}, selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE };
    const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: drop })] });
    const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 1000 })] });
    let tracing: Phase[];
    let recording: Phase[];
    let floorTracing: { wall_us: number; cpu_us: number };
    let floor: { wall_us: number; cpu_us: number };
    try {
      // Tracing alone first (the issue's condition for its 5 µs target), then the metrics beside it.
      trace.setGlobalTracerProvider(tracerProvider);
      floorTracing = await sdkFloor(rounds, batch, false);
      tracing = await phase('tracing SDK alone');
      metrics.setGlobalMeterProvider(meterProvider);
      floor = await sdkFloor(rounds, batch);
      recording = await phase('SDK recording');
    } finally {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
    }
    const receiver = await sink();
    const exporting = await startOtlpExport(
      { tracesUrl: `${receiver.url}/v1/traces`, metricsUrl: `${receiver.url}/v1/metrics`, traces: true, metrics: true, metricIntervalMs: 1000, sampler: { kind: 'parentbased_always_on' }, batch: {}, notes: [] },
      { command: 'bench', log: (line) => log(`telemetry: ${line}`) },
    );
    let withSdk: Phase[];
    try {
      withSdk = await phase('SDK exporting over OTLP/HTTP');
    } finally {
      await exporting.shutdown();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
    const rows = pairs.map((pair, i): TelemetryRow => {
      const a = noSdk[i] as Phase;
      const t = tracing[i] as Phase;
      const r = recording[i] as Phase;
      const b = withSdk[i] as Phase;
      return {
        hook: pair.label,
        off_us: round(median(a.off)),
        api_us: round(median(a.on)),
        api_added_us: round(added(a.off, a.on)),
        api_added_cpu_us: round(a.cpu),
        off_beside_tracing_us: round(median(t.off)),
        tracing_us: round(median(t.on)),
        tracing_added_us: round(added(t.off, t.on)),
        tracing_added_cpu_us: round(t.cpu),
        off_beside_sdk_us: round(median(r.off)),
        recording_us: round(median(r.on)),
        recording_added_us: round(added(r.off, r.on)),
        recording_added_cpu_us: round(r.cpu),
        off_beside_export_us: round(median(b.off)),
        sdk_us: round(median(b.on)),
        sdk_added_us: round(added(b.off, b.on)),
        sdk_added_cpu_us: round(b.cpu),
      };
    });
    return { rounds, batch, rows, sdk_floor: floor, sdk_floor_tracing: floorTracing, exported: { trace_requests: receiver.counts.traces, metric_requests: receiver.counts.metrics, bytes: receiver.counts.bytes }, loadavg: loads.map(round) };
  } finally {
    await Promise.all(pairs.flatMap((p) => [p.off.close(), p.on.close()]));
  }
}

export function telemetryReport(bench: TelemetryBench): string {
  const lines = [
    `OpenTelemetry: added cost per call, chain of one hook (${bench.rounds} interleaved rounds × ${bench.batch} calls; load ${bench.loadavg.join(' ')})`,
    '  hook                         | off      | API, no SDK (added; CPU)    | off      | SDK recording (added; CPU)   | off      | SDK exporting OTLP/HTTP (added; CPU)',
    ...bench.rows.map(
      (r) =>
        `  ${r.hook.padEnd(29)}| ${`${r.off_us} µs`.padEnd(9)}| ${`${r.api_us} µs (+${r.api_added_us}; +${r.api_added_cpu_us})`.padEnd(28)}| ${`${r.off_beside_sdk_us} µs`.padEnd(9)}| ${`${r.recording_us} µs (+${r.recording_added_us}; +${r.recording_added_cpu_us})`.padEnd(29)}| ${`${r.off_beside_export_us} µs`.padEnd(9)}| ${r.sdk_us} µs (+${r.sdk_added_us}; +${r.sdk_added_cpu_us})`,
    ),
    ...bench.rows.map((r) => `  ${r.hook.padEnd(29)}| tracing SDK alone (batch span processor, no metrics): ${r.tracing_us} µs beside ${r.off_beside_tracing_us} µs off (+${r.tracing_added_us}; CPU +${r.tracing_added_cpu_us})`),
    `  the tracing SDK's own floor (2 spans, one the other's child, no attribute, no runner): ${bench.sdk_floor_tracing.wall_us} µs, CPU ${bench.sdk_floor_tracing.cpu_us} µs per call`,
    `  the SDK's own floor for the same signals (2 spans, 2 histogram records, no attribute, no runner): ${bench.sdk_floor.wall_us} µs, CPU ${bench.sdk_floor.cpu_us} µs per call`,
    `  targets: API without an SDK ≤ 0.2 µs added; SDK with a batch span processor ≤ 5 µs added (the tracing SDK alone; with metrics too, the recording column). Exporting adds the SDK's serialisation and HTTP on the same thread; the sink got ${bench.exported.trace_requests} trace and ${bench.exported.metric_requests} metric requests (${Math.round(bench.exported.bytes / 1024)} KiB).`,
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  const bench = await benchTelemetry(values.quick === true, (line) => process.stderr.write(`[bench] ${line}\n`));
  process.stdout.write(values.json === true ? `${JSON.stringify(bench, null, 2)}\n` : telemetryReport(bench));
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`telemetry bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
