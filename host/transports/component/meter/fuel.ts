/**
 * The fuel budget of a metered call and how it relates to time.
 *
 * A unit of fuel pays for one WebAssembly instruction (see instrument.ts for what is charged where).
 * {@link FUEL_PER_MS} was calibrated on the development machine (Node 20, 2 shared cores) as the
 * rate at which a tight loop burns fuel in V8's baseline code (Liftoff): a function that starts
 * looping forever is usually still baseline code, and stays so — wasm has no on-stack replacement,
 * so a loop that never returns never reaches the optimized tier (TurboFan).
 *
 * Instructions differ in cost, so the bound is deterministic in instructions, not in time. Measured
 * (`.scratch/meter/calib4.ts`, units per ms, baseline / optimized code):
 *
 * | loop body | units/ms | a runaway with the default 1000 ms budget stops after |
 * |---|---|---|
 * | `loop br` (empty) | 12 M / 34 M | 1.0 s / 0.36 s |
 * | counter + compare (tight) | 15 M / 39 M | 0.8 s / 0.3 s |
 * | a call per iteration | 11 M / 17 M | 1.1 s / 0.7 s |
 * | integer division | 7.6 M | 1.6 s |
 * | `memory.copy` 32 MiB / `memory.fill` 64 MiB per iteration | 12 M | ~1.0 s |
 * | random memory access (a cache miss per load) — the worst case found | 2.2 M | 5.4 s |
 *
 * The conformance `hang` guests, through the transport (first call / later calls, after V8 has
 * optimized the code): WAT 1.3 / 0.4 s, C (a `volatile` counter) 1.75 s, Rust 1.0 / 0.45 s,
 * AssemblyScript 1.3 / 0.4 s, JS on QuickJS 0.56 / 0.1 s, JS on SpiderMonkey 0.28 / 0.17 s.
 * Optimized compiled code (an engine's C++) burns up to ~80 M units/ms: such a guest gets about
 * 15% of `timeout_ms` in real time before it runs out — set `fuel` explicitly for heavy hooks.
 *
 * Meanwhile a runaway holds the caller's thread. Each core instance of a component has its own
 * counter, refilled to the full budget before every call; a component whose loops span several core
 * modules could spend the budget in each (jco components have 1–13 core modules; a runaway loop
 * lives in one).
 *
 * Time spent in host calls (WASI imports and the glue that copies their arguments) is not wasm and
 * is charged separately, by measured time, against `timeout_ms` (or `fuel` / {@link FUEL_PER_MS}).
 */
import type { Sleeper } from '../sandbox/index.js';

/** Fuel units per millisecond of budget: fuel = timeout_ms × this (calibrated, see above). */
export const FUEL_PER_MS = 12_000_000;

/** The per-call budget: explicit fuel, or `timeout_ms` worth. */
export interface FuelBudget {
  /** Units each core instance's counter is filled to before a call. */
  readonly fuel: bigint;
  /** Milliseconds the call may spend inside host imports. */
  readonly hostMs: number;
  /** Whether the budget came from `timeout_ms` (else from an explicit `fuel`). */
  readonly derived: boolean;
}

/** The budget for `timeout_ms`, or for an explicit `fuel` (which then also sets the host-call allowance). */
export function fuelBudget(timeoutMs: number, fuel: number | undefined): FuelBudget {
  if (fuel !== undefined) return { fuel: BigInt(fuel), hostMs: fuel / FUEL_PER_MS, derived: false };
  return { fuel: BigInt(timeoutMs) * BigInt(FUEL_PER_MS), hostMs: timeoutMs, derived: true };
}

/** Thrown from a host import when the call has spent its allowance there (or would, by sleeping). */
export class FuelExhausted extends Error {
  override readonly name = 'FuelExhausted' as const;
}

/**
 * Per-call accounting of the time a metered guest spends in host imports. Every import function is
 * wrapped to charge its measured duration; once the allowance is spent the next import (or the one
 * that overspent) throws {@link FuelExhausted}, which unwinds the guest.
 */
export class HostMeter {
  #leftMs = 0;
  #exhausted = false;

  /** Start a call with `allowanceMs`. */
  reset(allowanceMs: number): void {
    this.#leftMs = allowanceMs;
    this.#exhausted = false;
  }

  /** What is left of the allowance, in ms. */
  get leftMs(): number {
    return this.#leftMs;
  }

  /** The allowance ran out during this call (even if the guest caught the exception). */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** Charge `ms`; throws when the allowance is gone. */
  charge(ms: number): void {
    this.#leftMs -= ms;
    if (this.#leftMs < 0) this.exhaust('the guest spent its time allowance in host calls');
  }

  /** Mark the allowance spent and unwind the guest. */
  exhaust(why: string): never {
    this.#exhausted = true;
    this.#leftMs = Math.min(this.#leftMs, 0);
    throw new FuelExhausted(why);
  }

  /** `sleep`, refusing to wait past what is left: such a wait would end in exhaustion anyway, later. */
  sleeper(sleep: Sleeper): Sleeper {
    return (instant) => {
      const ms = Number(instant - process.hrtime.bigint()) / 1e6;
      if (ms > this.#leftMs) this.exhaust(`the guest asked to wait ${Math.round(ms)} ms, past its time allowance`);
      sleep(instant);
    };
  }

  /**
   * Wrap an import function so its duration is charged. Sleeping is done by the wrapped function
   * itself (through the sandbox's sleeper, which checks first) and charged like any other time.
   */
  wrap<F extends (...args: never[]) => unknown>(fn: F): F {
    const meter = this;
    const wrapped = function (this: unknown, ...args: Parameters<F>): ReturnType<F> {
      if (meter.#exhausted) throw new FuelExhausted('the guest called the host after its time allowance ran out');
      const started = performance.now();
      try {
        return fn.apply(this, args) as ReturnType<F>;
      } finally {
        meter.charge(performance.now() - started);
      }
    };
    return wrapped as unknown as F;
  }
}
