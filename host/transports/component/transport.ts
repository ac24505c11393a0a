import { resolve } from 'node:path';
import { toWitRequest, type WitHookRequest } from '../../codec/wit.js';
import type { HookRequest } from '../../contract/request.js';
import { HookError, isHookError } from '../../errors/hook-error.js';
import { OptionsError } from '../../errors/options-error.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { toInvokeResult, type ReplyContext } from './failures.js';
import type { GuestReply, GuestRunner } from './guest-runner.js';
import { glueSource } from './cache.js';
import { planDirectCall, type DirectPlan } from './direct/index.js';
import { InThreadRunner } from './in-thread.js';
import { loadComponent, type ComponentInfo, type LoadedComponent } from './loader.js';
import type { GuestLimits, GuestSpec } from './guest.js';
import { COMPONENT_DEFAULTS, type ComponentIsolation, type ComponentOptions } from './options.js';
import { WorkerPool } from './pool.js';
import { STATE_POLICIES, type StatePolicy } from './state.js';

/** A WebAssembly component hook. */
export interface ComponentTransport extends Transport {
  readonly kind: 'component';
  /** `metered` (on the caller's thread) or `worker`. */
  readonly isolation: ComponentIsolation;
  /** Answers at once (no promise) when a metered call was quick; else a promise. */
  invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult>;
  /**
   * Load the component: read and check it, transpile it (or take it from the cache), compile its core
   * modules (fuel-instrumented, also cached), and instantiate it (in worker
   * isolation, in a worker). Idempotent (later calls return the first load's result). Rejects with
   * `HookError('load_failed')` whose message names the cause.
   */
  load(): Promise<ComponentInfo>;
  /** Same as {@link load}: a component "can start" when it loads. */
  check(): Promise<void>;
  /** Terminate the workers (or drop the in-thread instance). Calls still waiting end as failures. Idempotent. */
  close(): Promise<void>;
}

/** The reply mapped to the contract's result — at once when the runner answered at once. */
function mapped(reply: GuestReply | Promise<GuestReply>, context: ReplyContext): InvokeResult | Promise<InvokeResult> {
  return reply instanceof Promise ? reply.then((r) => toInvokeResult(r, context)) : toInvokeResult(reply, context);
}

/** A worker gets this long to start and instantiate the component (large guests are slow to compile). */
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * The first instantiation, at load, may take this long (or `timeout_ms`, if longer): a cold start
 * compiles lazily and imports the glue. A start function that does not return within it fails the load.
 */
const LOAD_INSTANTIATION_MS = 5_000;

/** After a worker's call is answered at its deadline, it has this long to come back before it is replaced. */
const WORKER_GRACE_MS = 250;

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v <= 0) throw new OptionsError(`component option ${name} must be a positive integer (got ${String(value)})`, { option: name });
  return v;
}

function isolationOf(value: ComponentIsolation | undefined): ComponentIsolation {
  const v = value ?? COMPONENT_DEFAULTS.isolation;
  if (v !== 'worker' && v !== 'metered') throw new OptionsError(`component option isolation must be "metered" or "worker" (got ${String(value)})`, { option: 'isolation' });
  return v;
}

function stateOf(value: StatePolicy | undefined): StatePolicy {
  const v = value ?? COMPONENT_DEFAULTS.state;
  if (!STATE_POLICIES.includes(v)) throw new HookError('load_failed', `component option state must be one of ${STATE_POLICIES.join(', ')} (got ${String(value)})`);
  return v;
}

function directCallOf(value: boolean | undefined): boolean {
  if (value !== undefined && typeof value !== 'boolean') throw new OptionsError(`component option direct_call must be true or false (got ${String(value)})`, { option: 'direct_call' });
  return value ?? true;
}

function fuelOption(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value <= 0) throw new OptionsError(`component option fuel must be a positive integer (got ${String(value)})`, { option: 'fuel' });
  return value;
}

/**
 * Run a hook compiled to a WebAssembly component exporting `basis:hook/handler@1.0.0`, sandboxed: its
 * only WASI is deny-by-default (no files, no environment, no network; stdout/stderr captured), all its
 * memories and tables together are capped at `memory_mb`, what a call opens is closed when it ends,
 * every call ends within `timeout_ms` (the guest is metered and stopped at its deadline, on the
 * caller's thread in metered isolation, the default, or in a worker thread), and by default no state
 * crosses from one tenant's call to another's. Every misbehaviour comes back as a typed failure, never
 * as an exception or an allow. Options no hook could run with throw an `OptionsError`
 * (`invalid_options`) at construction.
 *
 * @example
 * const guard = componentTransport({ path: 'hooks/guard.wasm', timeout_ms: 500 });
 * await guard.load(); // fails here, before any call, if the component cannot run
 * const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: guard }]);
 */
export function componentTransport(options: ComponentOptions): ComponentTransport {
  if (typeof options.path !== 'string' || options.path === '') throw new OptionsError('component option path is required', { option: 'path' });
  const path = resolve(options.path);
  const timeoutMs = positiveInt('timeout_ms', options.timeout_ms, COMPONENT_DEFAULTS.timeout_ms);
  const memoryMb = positiveInt('memory_mb', options.memory_mb, COMPONENT_DEFAULTS.memory_mb);
  const maxOutputBytes = positiveInt('max_output_bytes', options.max_output_bytes, COMPONENT_DEFAULTS.max_output_bytes);
  const maxLogBytes = positiveInt('max_log_bytes', options.max_log_bytes, COMPONENT_DEFAULTS.max_log_bytes);
  const poolSize = positiveInt('pool_size', options.pool_size, COMPONENT_DEFAULTS.pool_size);
  const isolation = isolationOf(options.isolation);
  const fuel = fuelOption(options.fuel);
  const state = stateOf(options.state);
  const directCall = directCallOf(options.direct_call);
  const limits: GuestLimits = { timeoutMs, loadTimeoutMs: Math.max(timeoutMs, LOAD_INSTANTIATION_MS), fuel, memoryBytes: memoryMb * 1024 * 1024 };

  let loading: Promise<{ runner: GuestRunner; info: ComponentInfo }> | undefined;
  /** The runner once loaded: warm calls need not await the load again. */
  let loaded: GuestRunner | undefined;
  let closed = false;

  function spec(component: LoadedComponent, direct: DirectPlan | undefined): GuestSpec {
    return { handler: component.info.handler, modules: component.modules, maxOutputBytes, sandbox: component.sandbox, limits, state, direct };
  }

  function workerPool(component: LoadedComponent, direct: DirectPlan | undefined): WorkerPool {
    return new WorkerPool({
      init: {
        type: 'init',
        glueUrl: component.glueUrl,
        handler: component.info.handler,
        modules: { ...component.modules },
        maxOutputBytes,
        sandbox: {
          env: component.sandbox.env.map(([k, v]): [string, string] => [k, v]),
          readOnlyDirs: component.sandbox.readOnlyDirs.map(([g, h]): [string, string] => [g, h]),
          maxLogBytes: component.sandbox.maxLogBytes,
        },
        limits: { timeoutMs: limits.timeoutMs, loadTimeoutMs: limits.loadTimeoutMs, memoryBytes: limits.memoryBytes, ...(fuel === undefined ? {} : { fuel }) },
        state,
        ...(direct === undefined ? {} : { direct }),
      },
      maxWorkers: poolSize,
      timeoutMs,
      graceMs: WORKER_GRACE_MS,
      startupTimeoutMs: STARTUP_TIMEOUT_MS,
      // The glue lifts guest strings into the worker's JS heap, and a reply is serialised and copied:
      // room for a few copies of a full memory and of the largest answer. V8 enforces a worker's heap
      // limit at garbage collection; one allocation larger than what is left ends the whole process
      // (FatalProcessOutOfMemory), so no allocation a guest can cause may come near the limit.
      heapMb: 128 + 4 * memoryMb + 4 * Math.ceil(maxOutputBytes / (1024 * 1024)),
    });
  }

  async function doLoad(): Promise<{ runner: GuestRunner; info: ComponentInfo }> {
    const component = await loadComponent({ path, memoryMb, maxLogBytes, grants: options.grants, cacheDir: options.cache_dir, instrumented: true });
    // Found once per component, from its glue: how `handle` can be called without the glue (or why not).
    const planned = directCall ? planDirectCall(glueSource(component.glueUrl), component.info.handler, component.modules) : { ok: false as const, reason: 'direct_call is false' };
    const direct = planned.ok ? planned.plan : undefined;
    const runner: GuestRunner = isolation === 'worker' ? workerPool(component, direct) : new InThreadRunner(spec(component, direct), component.glueUrl);
    const started = performance.now();
    try {
      await runner.warm();
    } catch (error) {
      await runner.close();
      throw new HookError('load_failed', `component ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const metering = { cache_hit: component.meterCacheHit ?? false, ...(fuel === undefined ? {} : { fuel_per_call: fuel }) };
    const call: ComponentInfo['call'] = planned.ok ? { path: 'direct' } : { path: 'glue', why: planned.reason };
    const info: ComponentInfo = { ...component.info, metering, call, timings_ms: { ...component.info.timings_ms, instantiate: performance.now() - started } };
    if (!closed) loaded = runner;
    return { runner, info };
  }

  function load(): Promise<{ runner: GuestRunner; info: ComponentInfo }> {
    if (closed) return Promise.reject(new HookError('load_failed', `component ${path}: the transport is closed`));
    loading ??= doLoad();
    return loading;
  }

  const replyContext: ReplyContext = { timeoutMs, maxOutputBytes, memoryMb };

  /** The first call of a transport never loaded: load, then call (asynchronously, once). */
  async function invokeAfterLoad(request: HookRequest, context: InvokeContext): Promise<InvokeResult> {
    try {
      await load();
    } catch (error) {
      const failure = isHookError(error) ? error.toFailure() : { code: 'load_failed' as const, message: String(error) };
      return { ok: false, failure };
    }
    return this_.invoke(request, context);
  }

  /** Worker isolation with a deadline shorter than the hook's own: abort at that deadline; the pool stops the worker there. */
  async function invokeNarrowed(runner: GuestRunner, record: WitHookRequest, signal: AbortSignal | undefined, limitMs: number): Promise<InvokeResult> {
    const narrowed = new AbortController();
    const onAbort = (): void => narrowed.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) narrowed.abort();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      narrowed.abort();
    }, limitMs);
    try {
      const reply = await runner.invoke(record, narrowed.signal);
      if (expired && reply.type === 'aborted') return { ok: false, failure: { code: 'timeout', message: `the guest did not answer within ${limitMs} ms; it was stopped` } };
      return toInvokeResult(reply, replyContext);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  const this_: ComponentTransport = {
    kind: 'component',
    isolation,
    async load() {
      return (await load()).info;
    },
    async check() {
      await load();
    },
    invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult> {
      const runner = loaded;
      if (runner === undefined) return invokeAfterLoad(request, context);
      const deadline = context.deadline_ms;
      const record = toWitRequest(request, context.text);
      if (deadline === undefined || deadline >= timeoutMs) return mapped(runner.invoke(record, context.signal), replyContext);
      // A chain budget leaves the hook less than its own timeout. Metered: the call's wall-clock
      // deadline is simply the shorter one (the meter stops the guest there).
      const limitMs = Math.max(1, Math.ceil(deadline));
      if (isolation === 'metered') return mapped(runner.invoke(record, context.signal, limitMs), { timeoutMs: limitMs, maxOutputBytes, memoryMb });
      return invokeNarrowed(runner, record, context.signal, limitMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      loaded = undefined;
      const current = loading;
      if (current === undefined) return;
      try {
        await (await current).runner.close();
      } catch {
        // A load that failed left nothing running.
      }
    },
  };
  // Metered calls run within invoke, on this thread: the meter can say what the last one spent.
  if (isolation === 'metered') this_.fuelUsed = () => (loaded instanceof InThreadRunner ? loaded.lastFuelUsed() : undefined);
  return this_;
}
