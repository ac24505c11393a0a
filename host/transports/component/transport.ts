import { toWitRequest, type WitHookRequest } from '../../codec/wit.js';
import type { HookRequest } from '../../contract/request.js';
import { glueSource } from '../../engine/cache/cache.js';
import { Engine, type Component } from '../../engine/engine.js';
import { isLoadFailure } from '../../engine/errors.js';
import type { Executor } from '../../engine/executor/executor.js';
import { InThreadExecutor } from '../../engine/executor/in-thread.js';
import { PoolExecutor, WorkerPool } from '../../engine/executor/pool.js';
import type { InstanceSpec } from '../../engine/instance/instance.js';
import { planDirectCall, type DirectPlan } from '../../engine/instance/plan.js';
import type { StatePolicy as EngineStatePolicy } from '../../engine/limits.js';
import type { EngineOutcome } from '../../engine/outcome.js';
import { HookError, isHookError } from '../../errors/hook-error.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { hookBinding, type BindingData, type HookResult } from './binding.js';
import { hookCodec } from './codec.js';
import { toInvokeResult, type ReplyContext } from './failures.js';
import type { ComponentInfo } from './info.js';
import { resolveOptions, type ComponentIsolation, type ComponentOptions, type ResolvedOptions, type StatePolicy } from './options.js';
import { checkWorld } from './world.js';
import { CALLER_SPIN_US, STARTUP_TIMEOUT_MS, WORKER_GRACE_MS, WORKER_SPIN_US, heapMbFor, workerEntry } from './workers.js';

/** A WebAssembly component hook. */
export interface ComponentTransport extends Transport {
  readonly kind: 'component';
  /** `metered` (on the caller's thread) or `worker`. */
  readonly isolation: ComponentIsolation;
  /** Answers at once (no promise) when a metered call was quick; else a promise. */
  invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult>;
  /**
   * Load the component: read and check it, transpile it (or take it from the cache), compile its core
   * modules (fuel-instrumented, also cached), and instantiate it (in worker isolation, in a worker).
   * Idempotent (later calls return the first load's result). Rejects with `HookError('load_failed')`
   * whose message names the cause.
   */
  load(): Promise<ComponentInfo>;
  /** Same as {@link load}: a component "can start" when it loads. */
  check(): Promise<void>;
  /** Terminate the workers (or drop the in-thread instance). Calls still waiting end as failures. Idempotent. */
  close(): Promise<void>;
}

type HookExecutor = Executor<WitHookRequest, HookResult>;

/**
 * The first instantiation, at load, may take this long (or `timeout_ms`, if longer): a cold start
 * compiles lazily and imports the glue. A start function that does not return within it fails the load.
 */
const LOAD_INSTANTIATION_MS = 5_000;

/** The tenant policy in the engine's words: a tenant is the binding's scope (binding.ts). */
const ENGINE_STATE: Readonly<Record<StatePolicy, EngineStatePolicy>> = { per_call: 'per-call', per_tenant: 'per-scope', shared: 'shared' };

function mapped(outcome: EngineOutcome<HookResult> | Promise<EngineOutcome<HookResult>>, context: ReplyContext): InvokeResult | Promise<InvokeResult> {
  return outcome instanceof Promise ? outcome.then((o) => toInvokeResult(o, context)) : toInvokeResult(outcome, context);
}

/** The executor of a loaded component, as its isolation says. */
function executorFor(o: ResolvedOptions, component: Component, binding: BindingData, direct: DirectPlan | undefined): HookExecutor {
  const spec: InstanceSpec = {
    modules: component.modules,
    wasi: component.wasi,
    limits: {
      deadlineMs: o.timeoutMs,
      loadDeadlineMs: Math.max(o.timeoutMs, LOAD_INSTANTIATION_MS),
      ...(o.fuel === undefined ? {} : { fuel: o.fuel }),
      memoryBytes: o.memoryMb * 1024 * 1024,
      resultBytes: o.maxOutputBytes,
    },
    state: ENGINE_STATE[o.state],
    direct,
    // basis:hook/types carries only types: the glue still asks for its key.
    typeOnly: component.world.imports.filter((name) => name.startsWith('basis:hook/types@')),
  };
  if (o.isolation === 'metered') return new InThreadExecutor(spec, component.glueUrl, hookBinding(binding));
  const pool =
    o.workers?.pool ??
    new WorkerPool({
      entry: workerEntry(),
      codec: hookCodec,
      maxWorkers: o.poolSize,
      graceMs: WORKER_GRACE_MS,
      startupTimeoutMs: STARTUP_TIMEOUT_MS,
      heapMb: heapMbFor(o.memoryMb, o.maxOutputBytes),
      spinUs: WORKER_SPIN_US,
      callerSpinUs: CALLER_SPIN_US,
      closeWhenEmpty: true,
    });
  return pool.add({
    slot: {
      glueUrl: component.glueUrl,
      spec: {
        modules: { ...spec.modules },
        wasi: { env: spec.wasi.env.map(([k, v]): [string, string] => [k, v]), readOnlyDirs: spec.wasi.readOnlyDirs.map(([g, h]): [string, string] => [g, h]), maxLogBytes: spec.wasi.maxLogBytes },
        limits: spec.limits,
        state: spec.state,
        ...(direct === undefined ? {} : { direct }),
        typeOnly: [...(spec.typeOnly ?? [])],
      },
      binding,
    },
    deadlineMs: o.timeoutMs,
  });
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
  const o = resolveOptions(options);
  let loading: Promise<{ executor: HookExecutor; info: ComponentInfo }> | undefined;
  /** The executor once loaded: warm calls need not await the load again. */
  let loaded: HookExecutor | undefined;
  let closed = false;

  async function doLoad(): Promise<{ executor: HookExecutor; info: ComponentInfo }> {
    let component: Component;
    try {
      component = await new Engine({ cacheDir: o.cacheDir }).load(o.path, {
        memoryMb: o.memoryMb,
        maxLogBytes: o.maxLogBytes,
        grants: { env: o.grants?.env, envAllow: o.grants?.env_allow, readOnlyDirs: o.grants?.read_only_dirs },
        check: (world) => {
          const verdict = checkWorld(world);
          return verdict.ok ? undefined : verdict.message;
        },
      });
    } catch (error) {
      // The engine's failure says which component and why; its cause (a PackageMissingError, a
      // MemoryCapError...) is what the hook error carries, as callers look for it there.
      if (isLoadFailure(error)) throw new HookError('load_failed', error.message, error.cause === undefined ? {} : { cause: error.cause });
      throw error;
    }
    const verdict = checkWorld(component.world);
    if (!verdict.ok) throw new HookError('load_failed', `component ${o.path}: ${verdict.message}`);
    const binding: BindingData = { handler: verdict.handler, maxOutputBytes: o.maxOutputBytes };
    // Found once per component, from its glue: how `handle` can be called without the glue (or why not).
    const planned = o.directCall
      ? planDirectCall(glueSource(component.glueUrl), verdict.handler, 'handle', hookBinding(binding).plan, component.modules)
      : { ok: false as const, reason: 'direct_call is false' };
    const executor = executorFor(o, component, binding, planned.ok ? planned.plan : undefined);
    const started = performance.now();
    try {
      await executor.warm();
    } catch (error) {
      await executor.close();
      throw new HookError('load_failed', `component ${o.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const info: ComponentInfo = {
      path: component.path,
      sha256: component.sha256,
      size: component.size,
      imports: component.world.imports,
      exports: component.world.exports,
      handler: verdict.handler,
      world_version: verdict.handler.slice(verdict.handler.lastIndexOf('@') + 1),
      cache_hit: component.cacheHit,
      cache_entry: component.cacheEntry,
      timings_ms: { ...component.timingsMs, instantiate: performance.now() - started },
      metering: { cache_hit: component.meterCacheHit, ...(o.fuel === undefined ? {} : { fuel_per_call: o.fuel }) },
      call: planned.ok ? { path: 'direct' } : { path: 'glue', why: planned.reason },
    };
    if (!closed) loaded = executor;
    // A hook of shared workers: the group runs it in one hop with its neighbours in a chain.
    if (o.workers !== undefined && executor instanceof PoolExecutor) {
      o.workers.join(transport, { slot: executor.slot, timeoutMs: o.timeoutMs, maxOutputBytes: o.maxOutputBytes, memoryMb: o.memoryMb, heapMb: heapMbFor(o.memoryMb, o.maxOutputBytes) });
    }
    return { executor, info };
  }

  function load(): Promise<{ executor: HookExecutor; info: ComponentInfo }> {
    if (closed) return Promise.reject(new HookError('load_failed', `component ${o.path}: the transport is closed`));
    loading ??= doLoad();
    return loading;
  }

  const replyContext: ReplyContext = { timeoutMs: o.timeoutMs, maxOutputBytes: o.maxOutputBytes, memoryMb: o.memoryMb };

  /** The first call of a transport never loaded: load, then call (asynchronously, once). */
  async function invokeAfterLoad(request: HookRequest, context: InvokeContext): Promise<InvokeResult> {
    try {
      await load();
    } catch (error) {
      const failure = isHookError(error) ? error.toFailure() : { code: 'load_failed' as const, message: String(error) };
      return { ok: false, failure };
    }
    return transport.invoke(request, context);
  }

  const transport: ComponentTransport = {
    kind: 'component',
    isolation: o.isolation,
    async load() {
      return (await load()).info;
    },
    async check() {
      await load();
    },
    invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult> {
      const executor = loaded;
      if (executor === undefined) return invokeAfterLoad(request, context);
      const record = toWitRequest(request, context.text);
      const deadline = context.deadline_ms;
      if (deadline === undefined || deadline >= o.timeoutMs) {
        // No options object unless there is a signal: this is the path of every call.
        const signal = context.signal;
        return mapped(signal === undefined ? executor.invoke(record) : executor.invoke(record, { signal }), replyContext);
      }
      // A chain budget leaves the hook less than its own timeout: the call's deadline is the shorter one.
      const deadlineMs = Math.max(1, Math.ceil(deadline));
      return mapped(executor.invoke(record, { signal: context.signal, deadlineMs }), { timeoutMs: deadlineMs, maxOutputBytes: o.maxOutputBytes, memoryMb: o.memoryMb });
    },
    ...(o.workers === undefined ? {} : { hop: o.workers }),
    async close() {
      if (closed) return;
      closed = true;
      loaded = undefined;
      o.workers?.leave(transport);
      const current = loading;
      if (current === undefined) return;
      try {
        await (await current).executor.close();
      } catch {
        // A load that failed left nothing running.
      }
    },
  };
  // Metered calls run within invoke, on this thread: the meter can say what the last one spent.
  if (o.isolation === 'metered') transport.fuelUsed = () => (loaded instanceof InThreadExecutor ? loaded.lastFuelUsed() : undefined);
  return transport;
}
