import { ChainTelemetry, hookTraits, type HookTraits } from '../telemetry/chain.js';
import type { TelemetrySources } from '../telemetry/sources.js';
import type { Transport } from './transport.js';

/*
 * What the runner tells telemetry about a hook besides its trail entry: fixed traits, and the fuel a
 * metered call spent. Kept apart from runner.ts: nothing here is on the path of a chain that records
 * nothing.
 */

/**
 * The telemetry traits of hook `name`: its transport's isolation as the transport says (the seam for
 * every kind: a component says `metered` or `worker`, CEL and Cedar `in-process`), else what its kind
 * implies, else its kind.
 */
export function traitsOf(name: string, transport: Transport): HookTraits {
  const kind = typeof transport.kind === 'string' ? transport.kind : 'unknown';
  if (typeof transport.isolation === 'string') return hookTraits(name, transport.isolation);
  return hookTraits(name, kind === 'subprocess' ? 'process' : kind === 'interceptor' ? 'in-process' : kind);
}

/** The fuel the transport says its last call spent; a transport that throws says nothing. */
export function fuelOf(transport: Transport): number | undefined {
  if (transport.fuelUsed === undefined) return undefined;
  try {
    const fuel = transport.fuelUsed();
    return typeof fuel === 'number' && Number.isFinite(fuel) ? fuel : undefined;
  } catch {
    return undefined;
  }
}

/** Note the fuel on an evaluation (telemetry only; without fuel, the evaluation as it is). */
export function withFuel<E extends { fuel?: number }>(evaluated: E | Promise<E>, fuel: number | undefined): E | Promise<E> {
  if (fuel === undefined) return evaluated;
  if (evaluated instanceof Promise) {
    return evaluated.then((done) => {
      done.fuel = fuel;
      return done;
    });
  }
  evaluated.fuel = fuel;
  return evaluated;
}

/** A chain's spans and metrics, when a tracer or a meter listens (one provider lookup when none does). */
export function chainTelemetry(sources: TelemetrySources, start: Parameters<typeof ChainTelemetry.start>[2]): ChainTelemetry | undefined {
  if (sources.quiet) return undefined;
  const tracer = sources.tracer();
  const instruments = sources.instruments();
  if (tracer === undefined && instruments === undefined) return undefined;
  return ChainTelemetry.start(tracer, instruments, start);
}
