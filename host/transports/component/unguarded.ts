/**
 * The benchmark's baseline for the component transport: the same transpiled component instantiated
 * on the current thread with the same WASI imports and memory cap, but with no fuel, no isolation
 * and no checks on what comes back — what a call costs when nothing guards it. Internal: not a mode
 * the transport offers and not exported from the transport's index; `scripts/bench` imports it to
 * compare metered and worker isolation against it.
 */
import { toWitRequest } from '../../codec/wit.js';
import type { HookRequest } from '../../contract/request.js';
import { Engine } from '../../engine/engine.js';
import { asGlue } from '../../engine/instance/glue.js';
import { createWasi } from '../../engine/wasi/index.js';
import { Wasm } from '../../engine/wasm-api.js';
import { COMPONENT_DEFAULTS } from './options.js';
import { asWitRequest } from './wit-types.js';
import { checkWorld } from './world.js';

/** An unguarded instance: `handle` calls the component's raw export with the WIT request record. */
export interface UnguardedInstance {
  /** The component's `handle` result as jco's glue lifts it (a decision), or its exception. */
  handle(request: HookRequest): unknown;
  close(): void;
}

/** Load (or take from the cache) and instantiate `path` without a guard, on this thread. */
export async function instantiateUnguarded(path: string, options: { readonly cache_dir?: string } = {}): Promise<UnguardedInstance> {
  const component = await new Engine({ cacheDir: options.cache_dir }).load(path, {
    memoryMb: COMPONENT_DEFAULTS.memory_mb,
    maxLogBytes: COMPONENT_DEFAULTS.max_log_bytes,
    check: (world) => {
      const verdict = checkWorld(world);
      return verdict.ok ? undefined : verdict.message;
    },
    instrumented: false,
  });
  const verdict = checkWorld(component.world);
  if (!verdict.ok) throw new Error(verdict.message);
  const wasi = createWasi(component.wasi, { typeOnly: component.world.imports.filter((name) => name.startsWith('basis:hook/types@')) });
  const glue = asGlue(await import(component.glueUrl));
  const exports = (await glue.instantiate(
    (name) => {
      const module = component.modules[name];
      if (module === undefined) throw new Error(`no core module ${name}`);
      return module;
    },
    wasi.imports,
    (module, imports) => Wasm.instantiate(module, imports),
  )) as Readonly<Record<string, unknown>>;
  const handler = exports[verdict.handler] as { handle?: unknown } | undefined;
  const handle = handler?.handle;
  if (typeof handle !== 'function') throw new Error(`the component's exports have no ${verdict.handler}.handle`);
  return {
    handle: (request) => (handle as (r: unknown) => unknown)(asWitRequest(toWitRequest(request))),
    close: () => wasi.dispose(),
  };
}
