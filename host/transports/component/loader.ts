import v8 from 'node:v8';
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { HookError } from '../../errors/hook-error.js';
import { binaryKind, capMemory, initialFootprint, MemoryCapError } from './binary.js';
import { defaultCacheDir, readCacheEntry, readCachedModule, writeCacheEntry, type CacheEntry } from './cache.js';
import { EXTERNREF_ELEMENT_BYTES, FUNCREF_ELEMENT_BYTES } from './meter/costs.js';
import { instrumentModule, MeterError } from './meter/instrument.js';
import { readInstrumented, writeInstrumented } from './meter/store.js';
import type { ComponentGrants } from './options.js';
import type { SandboxConfig } from './sandbox/index.js';
import { readWorld, transpileComponent, transpilerVersion } from './transpile.js';
import { Wasm, type WasmModule } from './wasm-api.js';
import { checkWorld, type ComponentWorld } from './world.js';

/** What loading found out about a component (also what `inspect` shows). */
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

/** A loaded component: everything a worker (or the in-thread runner) needs to instantiate it. */
export interface LoadedComponent {
  readonly info: Omit<ComponentInfo, 'timings_ms' | 'metering'> & { readonly timings_ms: Omit<ComponentInfo['timings_ms'], 'instantiate'> };
  /** Instrumented loads: whether the modules were already instrumented (disk or this process). */
  readonly meterCacheHit?: boolean;
  /** `data:` URL of the verified glue module (see cache.ts). */
  readonly glueUrl: string;
  /** Core modules by the name the glue asks for, compiled with their memory capped (and instrumented). */
  readonly modules: Readonly<Record<string, WasmModule>>;
  /** The sandbox the component's instances get (grants resolved now, not per call). */
  readonly sandbox: SandboxConfig;
}

/** What {@link loadComponent} needs. */
export interface LoadRequest {
  readonly path: string;
  readonly memoryMb: number;
  readonly maxLogBytes: number;
  readonly grants: ComponentGrants | undefined;
  readonly cacheDir: string | undefined;
  /**
   * Compile the fuel-instrumented form of the core modules (what both isolations run) instead of the
   * plain one (only the benchmark's unguarded baseline runs that).
   */
  readonly instrumented: boolean;
}

function fail(path: string, message: string, cause?: unknown): never {
  throw new HookError('load_failed', `component ${path}: ${message}`, cause === undefined ? {} : { cause });
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

interface Compiled {
  readonly modules: Record<string, WasmModule>;
  /** The instrumented modules were read from the disk cache. */
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

async function compileModules(entry: CacheEntry, capPages: number, instrumented: boolean): Promise<Compiled> {
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

async function resolveGrants(path: string, grants: ComponentGrants | undefined): Promise<Pick<SandboxConfig, 'env' | 'readOnlyDirs'>> {
  const env: Array<[string, string]> = [];
  for (const name of grants?.env_allow ?? []) {
    const value = process.env[name];
    if (value !== undefined) env.push([name, value]);
  }
  for (const [name, value] of Object.entries(grants?.env ?? {})) {
    const existing = env.findIndex(([n]) => n === name);
    if (existing >= 0) env.splice(existing, 1);
    env.push([name, value]);
  }
  const readOnlyDirs: Array<[string, string]> = [];
  for (const [guestPath, hostDir] of Object.entries(grants?.read_only_dirs ?? {})) {
    if (!guestPath.startsWith('/')) fail(path, `grant read_only_dirs["${guestPath}"]: the guest path must be absolute`);
    let real: string;
    try {
      real = await realpath(hostDir);
      if (!(await stat(real)).isDirectory()) fail(path, `grant read_only_dirs["${guestPath}"]: ${hostDir} is not a directory`);
    } catch (error) {
      if (error instanceof HookError) throw error;
      fail(path, `grant read_only_dirs["${guestPath}"]: cannot use ${hostDir} (${detail(error)})`, error);
    }
    readOnlyDirs.push([guestPath, real]);
  }
  return { env, readOnlyDirs };
}

/**
 * Load a component for running: read it, check its world (handler version first, then the import
 * allowlist), transpile it (or take it from the sha256-keyed cache), compile its core modules with
 * their memory capped, and resolve its grants. Rejects with `HookError('load_failed')` naming the
 * cause: unreadable file, not WebAssembly, a core module instead of a component, another major
 * version of the handler, a refused import, memory over the cap, a transpile failure.
 */
export async function loadComponent(request: LoadRequest): Promise<LoadedComponent> {
  const { path } = request;
  const t0 = performance.now();
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    fail(path, `cannot read it (${detail(error)})`, error);
  }
  switch (binaryKind(bytes)) {
    case 'not-wasm':
      fail(path, 'not a WebAssembly component (no WebAssembly header: garbage bytes or a text file?)');
    case 'core-module':
      fail(path, 'a core WebAssembly module, not a component: make it a component exporting basis:hook/handler@1.0.0 (jco new / jco componentize)');
    case 'component':
      break;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const cacheDir = request.cacheDir ?? defaultCacheDir();
  const t1 = performance.now();

  let transpiler: string;
  try {
    transpiler = transpilerVersion();
  } catch (error) {
    // jco-transpile is an optional peer: not installed, the message says how to install it.
    fail(path, detail(error), error);
  }
  let entry = await readCacheEntry(cacheDir, sha256, transpiler);
  const cacheHit = entry !== undefined;
  let world: ComponentWorld;
  if (entry === undefined) {
    try {
      world = await readWorld(bytes);
    } catch (error) {
      fail(path, `not a valid component (${detail(error)})`, error);
    }
  } else {
    world = entry.manifest;
  }
  // Before transpiling: a component this host will not run costs no more work.
  const check = checkWorld(world);
  if (!check.ok) fail(path, check.message);
  if (entry === undefined) {
    try {
      entry = await writeCacheEntry(cacheDir, await transpileComponent(bytes, sha256, world));
    } catch (error) {
      fail(path, `cannot transpile it (${detail(error)})`, error);
    }
  }
  const t2 = performance.now();

  const capPages = Math.floor(request.memoryMb * 16);
  const key = `${entry.dir}\0${capPages}\0${request.instrumented ? 'metered' : 'plain'}`;
  let pending = compiled.get(key);
  const compiledHere = pending === undefined;
  if (pending === undefined) {
    pending = compileModules(entry, capPages, request.instrumented);
    compiled.set(key, pending);
    pending.catch(() => compiled.delete(key));
  }
  let modules: Compiled;
  try {
    modules = await pending;
  } catch (error) {
    if (error instanceof MemoryCapError) fail(path, `memory_mb ${request.memoryMb}: ${error.message}`, error);
    if (error instanceof MeterError) fail(path, `cannot run it: the meter cannot bound it: ${error.message}`, error);
    // QuickJS-built guests use extended constant expressions, behind a V8 flag on Node 20.
    const hint = /constant expression/.test(detail(error)) ? '; this component needs node --experimental-wasm-extended-const' : '';
    fail(path, `cannot compile it (${detail(error)})${hint}`, error);
  }
  const t3 = performance.now();
  const grants = await resolveGrants(path, request.grants);

  return {
    info: {
      path,
      sha256,
      size: bytes.byteLength,
      imports: world.imports,
      exports: world.exports,
      handler: check.handler,
      world_version: check.handler.slice(check.handler.lastIndexOf('@') + 1),
      cache_hit: cacheHit,
      cache_entry: entry.dir,
      timings_ms: { read: t1 - t0, transpile: t2 - t1, compile: t3 - t2 },
    },
    ...(request.instrumented ? { meterCacheHit: !compiledHere || modules.meterCacheHit } : {}),
    glueUrl: entry.glueUrl,
    modules: modules.modules,
    sandbox: { ...grants, maxLogBytes: request.maxLogBytes },
  };
}
