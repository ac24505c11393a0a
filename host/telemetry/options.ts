import { OptionsError } from '../errors/options-error.js';
import { GLOBAL_TELEMETRY, TelemetrySources, type TelemetryProviders } from './sources.js';

/** Runner options about OpenTelemetry traces and metrics. */
export interface TelemetryOptions {
  /**
   * Where spans and metrics go. Default: the OpenTelemetry API's global providers — nothing is
   * recorded until the application registers an SDK (basis-hooks never starts one; its CLI does with
   * `--otlp`). Providers of your own are used instead; `false` records nothing, whatever is registered.
   */
  readonly telemetry?: TelemetryProviders | false | undefined;
  /**
   * Record the tool's input (`gen_ai.tool.call.arguments`) and output (`gen_ai.tool.call.result`) on
   * the chain spans, failure messages and reasons on the hook spans (default false: they can hold
   * secrets). What is recorded is what the chain left — after every `modify` and `replace` — never the
   * input as the model wrote it or the output as the tool returned it.
   */
  readonly telemetry_payloads?: boolean | undefined;
  /**
   * Record the hooks' reasons (`basis_hooks.reason`: why a hook denied or rewrote, the deny reason the
   * model is told) without the input and output (default false: a reason is the hook's own text, and
   * a hook that found a secret may quote it). Implied by `telemetry_payloads`.
   */
  readonly telemetry_reasons?: boolean | undefined;
}

/** The sources a runner records to, or undefined for `telemetry: false`. Throws `invalid_options` for anything else. */
export function telemetrySources(options: TelemetryOptions): TelemetrySources | undefined {
  const { telemetry, telemetry_payloads: payloads, telemetry_reasons: reasons } = options;
  if (payloads !== undefined && typeof payloads !== 'boolean') throw new OptionsError(`telemetry_payloads must be true or false (got ${String(payloads)})`, { option: 'telemetry_payloads' });
  if (reasons !== undefined && typeof reasons !== 'boolean') throw new OptionsError(`telemetry_reasons must be true or false (got ${String(reasons)})`, { option: 'telemetry_reasons' });
  if (telemetry === undefined) return GLOBAL_TELEMETRY;
  if (telemetry === false) return undefined;
  if (telemetry === null || typeof telemetry !== 'object') {
    throw new OptionsError(`telemetry must be false or { tracer_provider?, meter_provider? } (got ${String(telemetry)})`, { option: 'telemetry' });
  }
  const { tracer_provider: tracer, meter_provider: meter } = telemetry;
  if (tracer !== undefined && typeof (tracer as { getTracer?: unknown }).getTracer !== 'function') {
    throw new OptionsError('telemetry.tracer_provider must be an OpenTelemetry TracerProvider (it has no getTracer)', { option: 'telemetry' });
  }
  if (meter !== undefined && typeof (meter as { getMeter?: unknown }).getMeter !== 'function') {
    throw new OptionsError('telemetry.meter_provider must be an OpenTelemetry MeterProvider (it has no getMeter)', { option: 'telemetry' });
  }
  return tracer === undefined && meter === undefined ? GLOBAL_TELEMETRY : new TelemetrySources(telemetry);
}
