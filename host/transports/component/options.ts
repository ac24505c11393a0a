import { resolve } from 'node:path';
import { HookError } from '../../errors/hook-error.js';
import { OptionsError } from '../../errors/options-error.js';
import type { ComponentWorkers } from './workers.js';

/**
 * When a component instance's state is reset between calls (the `state` option):
 * - `per_tenant` (default): before a call whose tenant — the request's (`workspace`, `agent_id`) —
 *   differs from the previous call's, so nothing one tenant's call left behind is visible to another
 *   tenant's; a runtime serving one agent never pays for it;
 * - `per_call`: before every call (but the first on a fresh instance), so no call sees another's;
 * - `shared`: never — one instance serves every caller and keeps what it keeps until it traps (the
 *   behaviour before this option existed; only for guests trusted to keep no secrets).
 */
export type StatePolicy = 'per_call' | 'per_tenant' | 'shared';

export const STATE_POLICIES: readonly StatePolicy[] = ['per_call', 'per_tenant', 'shared'];

/**
 * Options of a WebAssembly component hook. The config file's component entries map onto this
 * one-to-one (snake_case kept so config and API read the same).
 */
export interface ComponentOptions {
  /** Absolute path of the component (`.wasm`) that exports `basis:hook/handler@1.0.0`. */
  readonly path: string;
  /**
   * Wall-clock deadline per call in ms (default 1000), for everything the call triggers: making a
   * fresh instance when the last one was discarded (start functions included), a state reset, the
   * guest's own work and its host calls. The guest is metered and stopped at the deadline (a few ms
   * after it at most: see docs/sandbox-and-limits.md, "Measured bounds") → `timeout`.
   */
  readonly timeout_ms?: number;
  /**
   * Cap in MiB (default 64) on all the component's linear memories and tables together (tables count
   * what V8 spends per element). Growing past it is refused (-1 to the guest); a guest that traps
   * because of it, or starts over it, fails `memory_limit`.
   */
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
   * An optional deterministic cap per call besides the deadline: fuel units for the whole component
   * (1 per plain WebAssembly instruction, more for loads, calls and runtime operations: see
   * meter/costs.ts). Exhaustion → `timeout`, after the same instructions every time. Both isolations.
   */
  readonly fuel?: number;
  /**
   * What state a call may see that an earlier call left in the instance (default `per_tenant`; a
   * tenant is the request's `workspace` and `agent_id`): `per_tenant` resets the instance to its
   * just-instantiated state before a call from another tenant than the previous call's, `per_call`
   * before every call, `shared` never (one instance keeps state across all callers until it traps).
   * See {@link StatePolicy}.
   */
  readonly state?: StatePolicy;
  /**
   * Call `handle` straight through the canonical ABI of our world (default true) when the component
   * is shaped the way the planner knows (engine/instance/plan.ts and layout.ts: the layout, UTF-8, a synchronous lift), with
   * the checks jco's glue makes and stricter UTF-8; any other component is called through jco's glue.
   * `false` always uses the glue — the escape hatch, and the path the tests compare with. Which path
   * a loaded component takes is in its {@link ComponentInfo.call}.
   */
  readonly direct_call?: boolean;
  /**
   * Worker isolation: worker threads shared with other component hooks ({@link componentWorkers}):
   * consecutive hooks of a chain that share them run in one hop. Absent: this hook's own workers
   * (`pool_size` of them). A config's hooks in worker isolation share one set.
   */
  readonly workers?: ComponentWorkers;
  /** Explicit capabilities. Absent = none: no env, no files, no network, ever. */
  readonly grants?: ComponentGrants;
  /** Where transpiled components are cached, keyed by sha256 (default: `$BASIS_HOOKS_CACHE_DIR` or `~/.cache/basis-hooks`). */
  readonly cache_dir?: string;
}

/**
 * - `metered`: the guest runs on the caller's thread. No thread hop: a warm call costs about what the
 *   bare in-thread call does. A runaway holds the caller's thread until its deadline (and a few ms).
 * - `worker`: each instance in a worker thread: the caller is answered `timeout` exactly at the
 *   deadline and its thread is never held, at the price of a thread round trip per call (see docs/performance.md).
 *
 * Everything else — the deny-by-default sandbox, the meter and its deadline, memory caps, trap
 * handling, state resets, failure codes — is the same in both.
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
 * cores; `npm run bench`, generated into docs/performance.md): a metered call of a small
 * guest through the runner costs about 1.5× the JSON floor — a few µs — and is answered without a
 * promise, while worker isolation adds a thread round trip to every call (tens of µs on this machine,
 * most of it waking the threads). The price: a runaway guest holds the caller's thread until its
 * deadline (plus the meter's few ms) where a worker's caller is answered at the deadline — choose
 * `worker` for guests you expect to misbehave, or whose cost per call dwarfs a thread hop.
 *
 * `state: 'per_tenant'` — no state crosses tenants unless asked for, and a runtime serving one agent
 * never pays for a reset.
 *
 * `pool_size: 2` — worker isolation on the same machine, 8 concurrent callers: more calls/s from 2
 * workers than from 1, fewer from 4 (more threads than cores).
 */
export const COMPONENT_DEFAULTS = {
  timeout_ms: 1000,
  memory_mb: 64,
  max_output_bytes: 1024 * 1024,
  max_log_bytes: 64 * 1024,
  isolation: 'metered',
  pool_size: 2,
  state: 'per_tenant',
} as const satisfies Required<Pick<ComponentOptions, 'timeout_ms' | 'memory_mb' | 'max_output_bytes' | 'max_log_bytes' | 'isolation' | 'pool_size' | 'state'>>;

/** The options of one transport, checked and with their defaults applied. */
export interface ResolvedOptions {
  readonly path: string;
  readonly timeoutMs: number;
  readonly memoryMb: number;
  readonly maxOutputBytes: number;
  readonly maxLogBytes: number;
  readonly poolSize: number;
  readonly isolation: ComponentIsolation;
  readonly fuel: number | undefined;
  readonly state: StatePolicy;
  readonly directCall: boolean;
  readonly grants: ComponentGrants | undefined;
  readonly cacheDir: string | undefined;
  readonly workers: ComponentWorkers | undefined;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v <= 0) throw new OptionsError(`component option ${name} must be a positive integer (got ${String(value)})`, { option: name });
  return v;
}

/**
 * Check every option (an `OptionsError`, `invalid_options`, for one no hook could run with; a `state`
 * that is not a policy is `HookError('load_failed')`, as before this check existed) and apply the
 * defaults of {@link COMPONENT_DEFAULTS}.
 */
export function resolveOptions(options: ComponentOptions): ResolvedOptions {
  if (typeof options.path !== 'string' || options.path === '') throw new OptionsError('component option path is required', { option: 'path' });
  const isolation = options.isolation ?? COMPONENT_DEFAULTS.isolation;
  if (isolation !== 'worker' && isolation !== 'metered') throw new OptionsError(`component option isolation must be "metered" or "worker" (got ${String(options.isolation)})`, { option: 'isolation' });
  const state = options.state ?? COMPONENT_DEFAULTS.state;
  if (!STATE_POLICIES.includes(state)) throw new HookError('load_failed', `component option state must be one of ${STATE_POLICIES.join(', ')} (got ${String(options.state)})`);
  if (options.direct_call !== undefined && typeof options.direct_call !== 'boolean') {
    throw new OptionsError(`component option direct_call must be true or false (got ${String(options.direct_call)})`, { option: 'direct_call' });
  }
  const fuel = options.fuel;
  if (fuel !== undefined && (!Number.isSafeInteger(fuel) || fuel <= 0)) throw new OptionsError(`component option fuel must be a positive integer (got ${String(fuel)})`, { option: 'fuel' });
  return {
    path: resolve(options.path),
    timeoutMs: positiveInt('timeout_ms', options.timeout_ms, COMPONENT_DEFAULTS.timeout_ms),
    memoryMb: positiveInt('memory_mb', options.memory_mb, COMPONENT_DEFAULTS.memory_mb),
    maxOutputBytes: positiveInt('max_output_bytes', options.max_output_bytes, COMPONENT_DEFAULTS.max_output_bytes),
    maxLogBytes: positiveInt('max_log_bytes', options.max_log_bytes, COMPONENT_DEFAULTS.max_log_bytes),
    poolSize: positiveInt('pool_size', options.pool_size, COMPONENT_DEFAULTS.pool_size),
    isolation,
    fuel,
    state,
    directCall: options.direct_call ?? true,
    grants: options.grants,
    cacheDir: options.cache_dir,
    workers: isolation === 'worker' ? options.workers : undefined,
  };
}
