/**
 * `--otlp URL` and the standard `OTEL_*` variables: whether a long-running command exports its
 * traces and metrics, and where. Decided here without loading anything of the SDK; the SDK itself is
 * loaded by otlp-export.ts, and only when export is on.
 */

/** The flag's line for a command's `--help`. */
export const OTLP_USAGE = `      --otlp <url>        export traces and metrics over OTLP/HTTP to this collector (e.g.
                          http://127.0.0.1:4318; /v1/traces and /v1/metrics are appended).
                          Without it, the standard OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_/
                          _METRICS_ENDPOINT) variables turn export on; see docs/observability.md`;

/** What to export, decided from the flag and the environment. */
export interface OtlpSetting {
  /** The traces endpoint, when `--otlp` named one (else the exporter reads the environment). */
  readonly tracesUrl: string | undefined;
  readonly metricsUrl: string | undefined;
  readonly traces: boolean;
  readonly metrics: boolean;
  /** Milliseconds between metric exports (`OTEL_METRIC_EXPORT_INTERVAL`, default 60000). */
  readonly metricIntervalMs: number;
  /** `OTEL_TRACES_SAMPLER` (and `_ARG`): default `parentbased_always_on`, as the specification says. */
  readonly sampler: SamplerSetting;
  /** `OTEL_BSP_*`: the batch span processor's settings (the SDK's defaults where unset). */
  readonly batch: BatchSetting;
  /** Lines to print on stderr (settings that were not honoured as written). */
  readonly notes: readonly string[];
}

/** The standard samplers (`OTEL_TRACES_SAMPLER`). */
export type SamplerSetting =
  | { readonly kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { readonly kind: 'traceidratio' | 'parentbased_traceidratio'; readonly ratio: number };

/** The batch span processor's settings from `OTEL_BSP_SCHEDULE_DELAY`, `_MAX_QUEUE_SIZE`, `_MAX_EXPORT_BATCH_SIZE`, `_EXPORT_TIMEOUT`. */
export interface BatchSetting {
  readonly scheduledDelayMillis?: number;
  readonly maxQueueSize?: number;
  readonly maxExportBatchSize?: number;
  readonly exportTimeoutMillis?: number;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** The sampler the variables name; one not known (e.g. `jaeger_remote`) is noted and the default used. */
function sampler(env: NodeJS.ProcessEnv, notes: string[]): SamplerSetting {
  const name = set(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  const known = SAMPLERS.find((s) => s === name);
  if (known === undefined) {
    notes.push(`OTEL_TRACES_SAMPLER=${name} is not one basis-hooks knows (${SAMPLERS.join(', ')}): using parentbased_always_on`);
    return { kind: 'parentbased_always_on' };
  }
  if (known !== 'traceidratio' && known !== 'parentbased_traceidratio') return { kind: known };
  const arg = set(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = arg === undefined ? 1 : Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    notes.push(`OTEL_TRACES_SAMPLER_ARG=${String(arg)} is not a ratio from 0 to 1: using 1`);
    return { kind: known, ratio: 1 };
  }
  return { kind: known, ratio };
}

function batch(env: NodeJS.ProcessEnv, notes: string[]): BatchSetting {
  const out: { -readonly [K in keyof BatchSetting]: number } = {};
  const names = { scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY', maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE', maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT' } as const;
  for (const [key, name] of Object.entries(names) as Array<[keyof BatchSetting, string]>) {
    const value = set(env, name);
    if (value === undefined) continue;
    const n = Number(value);
    if (Number.isInteger(n) && n > 0) out[key] = n;
    else notes.push(`${name}=${value} is not a positive whole number: the SDK's default is used`);
  }
  return out;
}

const ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] as const;
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

function set(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A signal's exporter setting: on unless `none`; another exporter than OTLP is noted, and OTLP used. */
function signal(env: NodeJS.ProcessEnv, name: 'OTEL_TRACES_EXPORTER' | 'OTEL_METRICS_EXPORTER', notes: string[]): boolean {
  const value = set(env, name)?.toLowerCase();
  if (value === undefined || value === 'otlp') return true;
  if (value === 'none') return false;
  notes.push(`${name}=${value}: basis-hooks exports over OTLP/HTTP only; using otlp`);
  return true;
}

/**
 * Whether and where to export, or a sentence saying what is wrong (a usage error: exit 2).
 * Export is on with `--otlp URL`, or when one of the standard endpoint variables is set and
 * `OTEL_SDK_DISABLED` is not `true` (`--otlp` wins over it: it is asked for by name).
 * `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER=none` turn one signal off. gRPC is refused: the
 * exporters speak OTLP over HTTP (JSON), which collectors take on their HTTP port (4318).
 */
export function otlpSetting(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): OtlpSetting | undefined | string {
  if (flag === undefined && (set(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true' || !ENDPOINT_VARIABLES.some((name) => set(env, name) !== undefined))) return undefined;
  let base: string | undefined;
  if (flag !== undefined) {
    let url: URL;
    try {
      url = new URL(flag);
    } catch {
      return `--otlp needs a URL (e.g. http://127.0.0.1:4318), got ${JSON.stringify(flag)}`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--otlp needs an http:// or https:// URL (OTLP over HTTP), got ${JSON.stringify(flag)}`;
    if (url.search !== '' || url.hash !== '') return `--otlp takes the collector's base URL, without a query or fragment: ${JSON.stringify(flag)}`;
    base = url.href.replace(/\/+$/, '');
  }
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL']) {
    if (set(env, name)?.toLowerCase() === 'grpc') {
      return `${name}=grpc is not supported: basis-hooks exports OTLP over HTTP; point it at the collector's HTTP endpoint (port 4318) and unset ${name} or set it to http/json`;
    }
  }
  const notes: string[] = [];
  const traces = signal(env, 'OTEL_TRACES_EXPORTER', notes);
  const metrics = signal(env, 'OTEL_METRICS_EXPORTER', notes);
  const interval = set(env, 'OTEL_METRIC_EXPORT_INTERVAL');
  let metricIntervalMs = DEFAULT_METRIC_INTERVAL_MS;
  if (interval !== undefined) {
    const n = Number(interval);
    if (Number.isInteger(n) && n > 0) metricIntervalMs = n;
    else notes.push(`OTEL_METRIC_EXPORT_INTERVAL=${interval} is not a positive number of milliseconds: using ${DEFAULT_METRIC_INTERVAL_MS}`);
  }
  return {
    tracesUrl: base === undefined ? undefined : `${base}/v1/traces`,
    metricsUrl: base === undefined ? undefined : `${base}/v1/metrics`,
    traces,
    metrics,
    metricIntervalMs,
    sampler: sampler(env, notes),
    batch: batch(env, notes),
    notes,
  };
}

/**
 * The packages export loads (only then: the library needs none of them), at the versions basis-hooks
 * is built against — a test keeps these ranges equal to package.json's.
 */
export const OTLP_PACKAGES: Readonly<Record<string, string>> = {
  '@opentelemetry/sdk-trace': '^3.1.1',
  '@opentelemetry/sdk-metrics': '^3.1.1',
  '@opentelemetry/resources': '^3.1.1',
  '@opentelemetry/exporter-trace-otlp-http': '^0.301.2',
  '@opentelemetry/exporter-metrics-otlp-http': '^0.301.2',
};

/** A sentence naming the install command, when `error` says one of {@link OTLP_PACKAGES} is not installed. */
function missingPackage(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const missing = Object.keys(OTLP_PACKAGES).find((name) => error.message.includes(`Cannot find package '${name}'`));
  if (missing === undefined) return undefined;
  const install = Object.entries(OTLP_PACKAGES).map(([name, range]) => `${name}@${range}`).join(' ');
  return `exporting (--otlp or OTEL_EXPORTER_OTLP_*) needs the OpenTelemetry SDK, and ${missing} is not installed; install it with: npm install ${install}`;
}

/** What a command holds while it exports: how to flush and stop at its end. */
export interface OtlpExport {
  /** Where it exports (for the command's start-up line). */
  readonly describe: string;
  /** Flush what is buffered and stop; resolves within `timeoutMs` whatever the collector does. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * For a command: decide from `--otlp` and the environment, then start the SDK (loaded only now) and
 * register it globally. Returns the export to shut down at the end, undefined when export is off, or
 * a usage problem (a sentence) when the flag or the environment is wrong.
 *
 * @example
 * const otlp = await startOtlpForCommand('serve', values.otlp, say);
 * if (typeof otlp === 'string') return usageError(command, otlp);
 * try { ... } finally { await otlp?.shutdown(); }
 */
export async function startOtlpForCommand(
  command: string,
  flag: string | undefined,
  log: (line: string) => void,
  options: { readonly environment?: boolean; readonly announce?: boolean } = {},
): Promise<OtlpExport | undefined | string> {
  // A command started per event (claude-code's command hook) exports only when asked by flag: the
  // agent's own OTEL_* variables would otherwise make every tool call load an exporter.
  if (flag === undefined && options.environment === false) return undefined;
  const setting = otlpSetting(flag);
  if (setting === undefined || typeof setting === 'string') return setting;
  for (const note of setting.notes) log(`otlp: ${note}`);
  let loaded: typeof import('./otlp-export.js');
  try {
    loaded = await import('./otlp-export.js');
  } catch (error) {
    const missing = missingPackage(error);
    if (missing === undefined) throw error;
    return missing;
  }
  const { startOtlpExport } = loaded;
  const exporting = await startOtlpExport(setting, { command, log });
  if (options.announce !== false) log(`otlp: exporting ${exporting.describe}`);
  return exporting;
}
