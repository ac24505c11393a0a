import v8 from 'node:v8';
import { readCachedModule, type CacheEntry } from '../cache/cache.js';
import { readInstrumented, writeInstrumented } from '../cache/instrumented.js';
import { EXTERNREF_ELEMENT_BYTES, FUNCREF_ELEMENT_BYTES } from '../meter/costs.js';
import { instrumentModule, MeterError } from '../meter/instrument.js';
import { Wasm, type WasmModule } from '../wasm-api.js';
import { capMemory, initialFootprint, MemoryCapError } from './binary.js';

/*
 * A cache entry's core modules made runnable: fuel-instrumented (the meter's form, cached beside the
 * transpiled ones), their memories capped, compiled — once per process per entry, cap and form.
 */

export interface Compiled {
  readonly modules: Record<string, WasmModule>;
  /** The instrumented modules came from the cache (disk, or compiled already in this process). */
  readonly meterCacheHit: boolean;
}

/** Compiled modules per component, memory cap and metering, once per process: every transport of it shares them. */
const compiled = new Map<string, Promise<Compiled>>();

let featuresEnabled = false;

/**
 * QuickJS guests use extended constant expressions (`i32.add` in a global's initializer), part of the
 * WebAssembly 3.0 standard that Node 20's V8 still keeps behind `--experimental-wasm-extended-const`.
 * The flag must be process-wide (a Worker's execArgv rejects it) and set before compiling; it only adds
 * a standard instruction form to what validates, it grants a guest nothing.
 */
function enableWasmFeatures(): void {
  if (featuresEnabled) return;
  featuresEnabled = true;
  v8.setFlagsFromString('--experimental-wasm-extended-const');
}

/**
 * The fuel-metered form of an entry's core modules: from the disk cache, or instrumented now (each
 * module validated by V8 first: the rewriter only reads well-formed code) and stored. Instrumented
 * before the memory cap is applied, so the cached form does not depend on `memory_mb`.
 */
async function meteredSources(entry: CacheEntry): Promise<{ modules: Record<string, Uint8Array>; cacheHit: boolean }> {
  const cached = await readInstrumented(entry);
  if (cached !== undefined) return { modules: cached, cacheHit: true };
  const modules: Record<string, Uint8Array> = {};
  for (const name of entry.manifest.modules) {
    const bytes = await readCachedModule(entry, name);
    if (!Wasm.validate(bytes)) throw new MeterError(`core module ${name} does not validate`);
    try {
      modules[name] = instrumentModule(bytes).bytes;
    } catch (error) {
      if (error instanceof MeterError) throw new MeterError(`core module ${name}: ${error.message}`, { cause: error });
      throw error;
    }
  }
  try {
    await writeInstrumented(entry, modules);
  } catch {
    // Only a cost: a cache this process cannot write (read-only, shared) instruments on every start.
  }
  return { modules, cacheHit: false };
}

function elementBytes(funcref: boolean): number {
  return funcref ? FUNCREF_ELEMENT_BYTES : EXTERNREF_ELEMENT_BYTES;
}

async function compileEntry(entry: CacheEntry, capPages: number, instrumented: boolean): Promise<Compiled> {
  enableWasmFeatures();
  const sources = instrumented ? await meteredSources(entry) : undefined;
  const modules: Record<string, WasmModule> = {};
  let footprint = 0;
  for (const name of entry.manifest.modules) {
    const capped = capMemory(sources?.modules[name] ?? (await readCachedModule(entry, name)), capPages);
    footprint += initialFootprint(capped.bytes, elementBytes);
    modules[name] = await Wasm.compile(capped.bytes);
  }
  // Each module is counted once here; instantiating one twice is counted when it happens (call-meter.ts).
  if (footprint > capPages * 65536) {
    throw new MemoryCapError(`its core modules' memories and tables start at ${(footprint / 1048576).toFixed(1)} MiB together, over the cap of ${capPages / 16} MiB`);
  }
  return { modules, meterCacheHit: sources?.cacheHit ?? false };
}


/**
 * The entry's modules compiled with memory capped at `capPages` (and instrumented unless `instrumented`
 * is false: only the benchmark's unguarded baseline runs them plain), once per process. Rejects with
 * {@link MemoryCapError} (memories and tables start over the cap) or {@link MeterError}, or V8's
 * compile error.
 */
export async function compileModules(entry: CacheEntry, capPages: number, instrumented: boolean): Promise<Compiled> {
  const key = `${entry.dir}\0${capPages}\0${instrumented ? 'metered' : 'plain'}`;
  const known = compiled.get(key);
  if (known !== undefined) return { modules: (await known).modules, meterCacheHit: true };
  const pending = compileEntry(entry, capPages, instrumented);
  compiled.set(key, pending);
  pending.catch(() => compiled.delete(key));
  return pending;
}
