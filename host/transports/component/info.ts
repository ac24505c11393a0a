/** What loading a component hook found out (also what `inspect` and the kit show). */
export interface ComponentInfo {
  readonly path: string;
  readonly sha256: string;
  /** Size of the component in bytes. */
  readonly size: number;
  /** What it imports and exports, fully qualified with versions (`wasi:cli/stdout@0.2.3`). */
  readonly imports: readonly string[];
  readonly exports: readonly string[];
  /** The handler export this host calls, e.g. `basis:hook/handler@1.0.0`. */
  readonly handler: string;
  /** The `basis:hook` version the component was built against (from its handler export). */
  readonly world_version: string;
  /** Whether the transpiled form came from the on-disk cache (no jco run). */
  readonly cache_hit: boolean;
  /** The cache entry's directory. */
  readonly cache_entry: string;
  /**
   * Where the load spent its time, in ms. `instantiate` is the first instance's start (in worker
   * isolation, its worker's). `compile` includes fuel instrumentation.
   */
  readonly timings_ms: { readonly read: number; readonly transpile: number; readonly compile: number; readonly instantiate: number };
  /**
   * Whether the instrumented core modules came from the cache (on disk beside the transpiled ones, or
   * already compiled in this process) rather than being instrumented by this load, and the explicit
   * fuel per call when there is one (else only the deadline bounds a call).
   */
  readonly metering?: { readonly cache_hit: boolean; readonly fuel_per_call?: number };
  /**
   * How `handle` is called once loaded: `direct` (through the canonical ABI, see `direct_call`) or
   * `glue` (jco's generated glue), with why not direct. A component planned direct that turns out to
   * call into an inner component falls back to the glue at that call, and stays there.
   */
  readonly call?: { readonly path: 'direct' } | { readonly path: 'glue'; readonly why: string };
}
