/**
 * The OpenTelemetry SDK with the official OTLP/HTTP exporters, started by a long-running command
 * (`mcp`, `claude-code --http`, a resident server) when export is asked for. Only the CLI loads this
 * module, and only then: the library records through `@opentelemetry/api` alone and never starts an
 * SDK. Registered globally, so every runner and integration of the process records into it.
 */
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { diag, DiagLogLevel, metrics, trace, type DiagLogger } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import type { OtlpExport, OtlpSetting, SamplerSetting } from './otlp-option.js';

/** How long a command's end waits for the last export (a collector that is down must not hold the exit). */
const SHUTDOWN_MS = 5000;
/** The same SDK complaint (a collector that is down) is printed at most this often. */
const REPEAT_MS = 60_000;

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The SDK's own warnings and errors (an export that failed), on stderr through `log`, each at most once a minute. */
function stderrLogger(log: (line: string) => void): DiagLogger {
  const last = new Map<string, number>();
  const say = (message: string, ...args: unknown[]): void => {
    const text = [message, ...args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 2, breakLength: Infinity })))].join(' ').replace(/\s+/g, ' ').slice(0, 500);
    const now = Date.now();
    if (now - (last.get(text) ?? -Infinity) < REPEAT_MS) return;
    last.set(text, now);
    log(`otlp: ${text}`);
  };
  const quiet = (): void => {};
  return { error: say, warn: say, info: quiet, debug: quiet, verbose: quiet };
}

/** The SDK's sampler for a setting. */
function samplerOf(setting: SamplerSetting): Sampler {
  switch (setting.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(setting.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setting.ratio) });
  }
}

/**
 * Start exporting: a tracer provider with a batch span processor, a meter provider with a periodic
 * reader (every `metricIntervalMs`, and once more at shutdown), both with the OTLP/HTTP exporters and
 * the resource `service.name=basis-hooks` (`OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` win), and
 * register them as the API's global providers.
 */
export async function startOtlpExport(setting: OtlpSetting, options: { readonly command: string; readonly log: (line: string) => void }): Promise<OtlpExport> {
  diag.setLogger(stderrLogger(options.log), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  const resource = resourceFromAttributes({ 'service.name': 'basis-hooks', 'service.version': packageVersion(), 'basis_hooks.command': options.command }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const stops: Array<() => Promise<void>> = [];
  const targets: string[] = [];
  if (setting.traces) {
    const exporter = new OTLPTraceExporter(setting.tracesUrl === undefined ? {} : { url: setting.tracesUrl });
    const provider = new TracerProvider({ resource, sampler: samplerOf(setting.sampler), spanProcessors: [new BatchSpanProcessor({ exporter, ...setting.batch })] });
    if (trace.setGlobalTracerProvider(provider)) {
      stops.push(async () => {
        await provider.shutdown();
        trace.disable();
      });
      targets.push(`traces to ${setting.tracesUrl ?? 'the OTEL_EXPORTER_OTLP_* endpoint'}`);
    } else {
      options.log('otlp: another tracer provider is already registered in this process; traces go there');
      await provider.shutdown();
    }
  }
  if (setting.metrics) {
    const exporter = new OTLPMetricExporter(setting.metricsUrl === undefined ? {} : { url: setting.metricsUrl });
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: setting.metricIntervalMs, exportTimeoutMillis: Math.min(30_000, setting.metricIntervalMs) });
    const provider = new MeterProvider({ resource, readers: [reader] });
    if (metrics.setGlobalMeterProvider(provider)) {
      stops.push(async () => {
        await provider.shutdown();
        metrics.disable();
      });
      targets.push(`metrics to ${setting.metricsUrl ?? 'the OTEL_EXPORTER_OTLP_* endpoint'} every ${setting.metricIntervalMs / 1000} s`);
    } else {
      options.log('otlp: another meter provider is already registered in this process; metrics go there');
      await provider.shutdown();
    }
  }
  let stopped: Promise<void> | undefined;
  return {
    describe: targets.length === 0 ? 'nothing (every signal is off)' : targets.join(', '),
    shutdown(timeoutMs = SHUTDOWN_MS) {
      stopped ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), timeoutMs);
          timer.unref();
        });
        const done = Promise.allSettled(stops.map((stop) => stop()));
        if ((await Promise.race([done, late])) === 'late') options.log(`otlp: the last export did not finish within ${timeoutMs} ms; it was abandoned`);
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}
