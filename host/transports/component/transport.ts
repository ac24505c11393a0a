import { resolve } from 'node:path';
import { toWitRequest } from '../../codec/wit.js';
import type { HookRequest } from '../../contract/request.js';
import { HookError, isHookError } from '../../errors/hook-error.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { toInvokeResult } from './failures.js';
import { loadComponent, type ComponentInfo } from './loader.js';
import { COMPONENT_DEFAULTS, type ComponentOptions } from './options.js';
import { WorkerPool } from './pool.js';

/** A WebAssembly component hook. */
export interface ComponentTransport extends Transport {
  readonly kind: 'component';
  /**
   * Load the component: read and check it, transpile it (or take it from the cache), compile its core
   * modules, start a worker and instantiate it. Idempotent (later calls return the first load's
   * result). Rejects with `HookError('load_failed')` whose message names the cause.
   */
  load(): Promise<ComponentInfo>;
  /** Same as {@link load}: a component "can start" when it loads. */
  check(): Promise<void>;
  /** Terminate the workers. Calls still running end as failures. Idempotent. */
  close(): Promise<void>;
}

/** A worker gets this long to start and instantiate the component (tsx and large guests are slow). */
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * Most workers per hook (each with its own instance and memory): calls that overlap run in parallel
 * up to this, then queue. Workers start on demand, so serial calls use one.
 */
const MAX_WORKERS = 2;

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v <= 0) throw new HookError('load_failed', `component option ${name} must be a positive integer (got ${String(value)})`);
  return v;
}

/**
 * Run a hook compiled to a WebAssembly component exporting `basis:hook/handler@1.0.0`, sandboxed: its
 * only WASI is deny-by-default (no files, no environment, no network; stdout/stderr captured), it
 * runs in worker threads that a deadline terminates, and its memory is capped on the module. Every
 * misbehaviour comes back as a typed failure, never as an exception or an allow.
 *
 * @example
 * const guard = componentTransport({ path: 'hooks/guard.wasm', timeout_ms: 500 });
 * await guard.load(); // fails here, before any call, if the component cannot run
 * const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: guard }]);
 */
export function componentTransport(options: ComponentOptions): ComponentTransport {
  if (typeof options.path !== 'string' || options.path === '') throw new HookError('load_failed', 'component option path is required');
  const path = resolve(options.path);
  const timeoutMs = positiveInt('timeout_ms', options.timeout_ms, COMPONENT_DEFAULTS.timeout_ms);
  const memoryMb = positiveInt('memory_mb', options.memory_mb, COMPONENT_DEFAULTS.memory_mb);
  const maxOutputBytes = positiveInt('max_output_bytes', options.max_output_bytes, COMPONENT_DEFAULTS.max_output_bytes);
  const maxLogBytes = positiveInt('max_log_bytes', options.max_log_bytes, COMPONENT_DEFAULTS.max_log_bytes);
  if ((options.isolation ?? COMPONENT_DEFAULTS.isolation) !== 'worker') {
    throw new HookError('load_failed', `component option isolation: only "worker" is supported (got ${String(options.isolation)})`);
  }

  let loading: Promise<{ pool: WorkerPool; info: ComponentInfo }> | undefined;
  let closed = false;

  async function doLoad(): Promise<{ pool: WorkerPool; info: ComponentInfo }> {
    const component = await loadComponent({ path, memoryMb, maxLogBytes, grants: options.grants, cacheDir: options.cache_dir });
    const pool = new WorkerPool({
      init: {
        type: 'init',
        glueUrl: component.glueUrl,
        handler: component.info.handler,
        modules: { ...component.modules },
        memoryMaxBytes: { ...component.memoryMaxBytes },
        maxOutputBytes,
        sandbox: {
          env: component.sandbox.env.map(([k, v]): [string, string] => [k, v]),
          readOnlyDirs: component.sandbox.readOnlyDirs.map(([g, h]): [string, string] => [g, h]),
          maxLogBytes: component.sandbox.maxLogBytes,
        },
      },
      maxWorkers: MAX_WORKERS,
      timeoutMs,
      startupTimeoutMs: STARTUP_TIMEOUT_MS,
      // The glue lifts guest strings into the worker's JS heap: room for a few copies of a full memory.
      heapMb: 128 + 4 * memoryMb,
    });
    const started = performance.now();
    try {
      await pool.warm();
    } catch (error) {
      await pool.close();
      throw new HookError('load_failed', `component ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const info: ComponentInfo = { ...component.info, timings_ms: { ...component.info.timings_ms, instantiate: performance.now() - started } };
    return { pool, info };
  }

  function load(): Promise<{ pool: WorkerPool; info: ComponentInfo }> {
    if (closed) return Promise.reject(new HookError('load_failed', `component ${path}: the transport is closed`));
    loading ??= doLoad();
    return loading;
  }

  return {
    kind: 'component',
    async load() {
      return (await load()).info;
    },
    async check() {
      await load();
    },
    async invoke(request: HookRequest, context: InvokeContext): Promise<InvokeResult> {
      let pool: WorkerPool;
      try {
        ({ pool } = await load());
      } catch (error) {
        const failure = isHookError(error) ? error.toFailure() : { code: 'load_failed' as const, message: String(error) };
        return { ok: false, failure };
      }
      const reply = await pool.invoke(toWitRequest(request), context.signal);
      return toInvokeResult(reply, { timeoutMs, maxOutputBytes, memoryMb });
    },
    async close() {
      if (closed) return;
      closed = true;
      const current = loading;
      if (current === undefined) return;
      try {
        await (await current).pool.close();
      } catch {
        // A load that failed left nothing running.
      }
    },
  };
}
