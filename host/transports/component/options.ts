/**
 * Options of a WebAssembly component hook. The config file's component entries map onto this
 * one-to-one (snake_case kept so config and API read the same).
 */
export interface ComponentOptions {
  /** Absolute path of the component (`.wasm`) that exports `basis:hook/handler@1.0.0`. */
  readonly path: string;
  /** Deadline per call in ms (default 1000). Worker isolation: the worker is terminated and replaced → `timeout`. */
  readonly timeout_ms?: number;
  /** Cap on each core module's linear memory in MiB (default 64). Exhaustion → `memory_limit` (or `trap`). */
  readonly memory_mb?: number;
  /** Cap on what the guest returns (reason, rewritten input or output) in bytes (default 1 MiB) → `output_too_large`. */
  readonly max_output_bytes?: number;
  /** Cap on captured guest stdout and stderr, each, in bytes (default 64 KiB). Excess is dropped and marked. */
  readonly max_log_bytes?: number;
  /** How the guest is isolated (default `worker`). */
  readonly isolation?: ComponentIsolation;
  /** Explicit capabilities. Absent = none: no env, no files, no network, ever. */
  readonly grants?: ComponentGrants;
  /** Where transpiled components are cached, keyed by sha256 (default: `$BASIS_HOOKS_CACHE_DIR` or `~/.cache/basis-hooks`). */
  readonly cache_dir?: string;
}

/** `worker`: each instance in a worker thread that a deadline can terminate. */
export type ComponentIsolation = 'worker';

/** What a guest may see beyond the deny-by-default sandbox. Every grant is opt-in and explicit. */
export interface ComponentGrants {
  /** Environment variables given to the guest with explicit values. */
  readonly env?: Readonly<Record<string, string>>;
  /** Names of host environment variables passed through (unset ones are simply absent). */
  readonly env_allow?: readonly string[];
  /** Read-only directories: guest path (e.g. `/data`) → host directory. */
  readonly read_only_dirs?: Readonly<Record<string, string>>;
}

export const COMPONENT_DEFAULTS = {
  timeout_ms: 1000,
  memory_mb: 64,
  max_output_bytes: 1024 * 1024,
  max_log_bytes: 64 * 1024,
  isolation: 'worker',
} as const satisfies Required<Pick<ComponentOptions, 'timeout_ms' | 'memory_mb' | 'max_output_bytes' | 'max_log_bytes' | 'isolation'>>;
