/**
 * Options of a WebAssembly component hook. The config file's component entries map onto this
 * one-to-one (snake_case kept so config and API read the same).
 */
export interface ComponentOptions {
  /** Absolute path of the component (`.wasm`) that exports `basis:hook/handler@1.0.0`. */
  readonly path: string;
  /**
   * Deadline per call in ms (default 1000). Worker isolation: the worker is terminated and replaced
   * → `timeout`. Metered isolation: the call gets `timeout_ms` worth of fuel (see `fuel`) → `timeout`
   * when it runs out.
   */
  readonly timeout_ms?: number;
  /** Cap on each core module's linear memory in MiB (default 64). Exhaustion → `memory_limit` (or `trap`). */
  readonly memory_mb?: number;
  /** Cap on what the guest returns (reason, rewritten input or output) in bytes (default 1 MiB) → `output_too_large`. */
  readonly max_output_bytes?: number;
  /** Cap on captured guest stdout and stderr, each, in bytes (default 64 KiB). Excess is dropped and marked. */
  readonly max_log_bytes?: number;
  /** How the guest is isolated from the host (default `metered`, see {@link ComponentIsolation} and {@link COMPONENT_DEFAULTS}). */
  readonly isolation?: ComponentIsolation;
  /**
   * Worker isolation: most workers (each with its own instance) for calls that overlap (default 2).
   * Workers start on demand, so serial calls use one. Metered isolation runs one instance on the
   * caller's thread and ignores it: its calls cannot overlap.
   */
  readonly pool_size?: number;
  /**
   * Metered isolation: fuel per call, in units of about one WebAssembly instruction, instead of the
   * `timeout_ms` × 12,000,000 (units/ms, calibrated on a tight loop) it is by default. Exhaustion →
   * `timeout`. Ignored in worker isolation.
   */
  readonly fuel?: number;
  /** Explicit capabilities. Absent = none: no env, no files, no network, ever. */
  readonly grants?: ComponentGrants;
  /** Where transpiled components are cached, keyed by sha256 (default: `$BASIS_HOOKS_CACHE_DIR` or `~/.cache/basis-hooks`). */
  readonly cache_dir?: string;
}

/**
 * - `metered`: the guest runs on the caller's thread, its core modules rewritten at load time to
 *   count fuel (≈ one unit per instruction; bulk memory operations by size; host calls by time) and
 *   trap when the call's budget is spent. No thread hop: a warm call costs about what the bare
 *   in-thread call does. Stopping is deterministic in instructions, not in time: with the default
 *   budget the conformance runaway guests were stopped after 0.1–1.8 s (by language; 5.4 s for the
 *   worst loop found, one cache miss per instruction — see meter/fuel.ts), and meanwhile a runaway
 *   holds the caller's thread.
 * - `worker`: each instance in a worker thread that a wall-clock deadline terminates; the caller's
 *   thread is never held, at the price of a thread round trip (~50–100 µs) per call.
 *
 * Everything else — the deny-by-default sandbox, memory caps, trap handling, failure codes — is the
 * same in both.
 */
export type ComponentIsolation = 'worker' | 'metered';

/** What a guest may see beyond the deny-by-default sandbox. Every grant is opt-in and explicit. */
export interface ComponentGrants {
  /** Environment variables given to the guest with explicit values. */
  readonly env?: Readonly<Record<string, string>>;
  /** Names of host environment variables passed through (unset ones are simply absent). */
  readonly env_allow?: readonly string[];
  /** Read-only directories: guest path (e.g. `/data`) → host directory. */
  readonly read_only_dirs?: Readonly<Record<string, string>>;
}

/**
 * Defaults of {@link ComponentOptions}.
 *
 * `isolation: 'metered'` — chosen from measurements on the development machine (Node 20, 2 shared
 * cores; warm call, median, each mode in its own process, best of three runs): a metered call costs
 * 1.4–2× the bare unguarded in-thread call of the same component (WAT 11 µs vs 7 µs, C 11 vs 6,
 * JS/QuickJS 27 vs 16, JS/SpiderMonkey 70 vs 42), while worker isolation adds a thread round trip to
 * every call (WAT 92–110 µs, C 92, QuickJS 106, SpiderMonkey 130): metered is 8–10× faster for small
 * guests and ~2× for the 12 MB SpiderMonkey one, whose own work dominates. Its single thread also
 * serves 80,000–110,000 calls/s of the C guard with 1 or 8 concurrent callers, against 7,500–17,000
 * with 1 worker and 15,000–21,000 with 2 (8 callers) in worker isolation. The price: a runaway guest
 * holds the caller's thread until its fuel runs out (0.1–1.8 s with the default budget for the
 * conformance runaways; see meter/fuel.ts) where a worker is terminated at the deadline — choose
 * `worker` for guests you expect to misbehave, or whose cost per call dwarfs a thread hop.
 *
 * `pool_size: 2` — worker isolation on the same machine, 8 concurrent callers: 9,000–17,000 calls/s
 * from 1 worker, 15,000–21,000 from 2, 5,500–9,000 from 4 (more threads than cores).
 */
export const COMPONENT_DEFAULTS = {
  timeout_ms: 1000,
  memory_mb: 64,
  max_output_bytes: 1024 * 1024,
  max_log_bytes: 64 * 1024,
  isolation: 'metered',
  pool_size: 2,
} as const satisfies Required<Pick<ComponentOptions, 'timeout_ms' | 'memory_mb' | 'max_output_bytes' | 'max_log_bytes' | 'isolation' | 'pool_size'>>;
