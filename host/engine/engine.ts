import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { defaultCacheDir, readCacheEntry, writeCacheEntry } from './cache/cache.js';
import { binaryKind, MemoryCapError } from './compile/binary.js';
import { compileModules, type Compiled } from './compile/compile.js';
import { readWorld, transpileComponent, transpilerVersion } from './compile/transpile.js';
import type { ComponentWorld } from './compile/world.js';
import { LoadFailure } from './errors.js';
import { MeterError } from './meter/instrument.js';
import { GrantError, resolveGrants, type WasiGrants } from './wasi/grants.js';
import type { WasiConfig } from './wasi/index.js';
import type { WasmModule } from './wasm-api.js';

/**
 * A loaded component: immutable compiled artifacts and what loading found out — everything an
 * instance (on this thread or in a worker) is made from.
 */
export interface Component {
  readonly path: string;
  readonly sha256: string;
  /** Size of the component in bytes. */
  readonly size: number;
  /** What it imports and exports, fully qualified with versions (`wasi:cli/stdout@0.2.3`). */
  readonly world: ComponentWorld;
  /** Whether the transpiled form came from the on-disk cache (no jco run). */
  readonly cacheHit: boolean;
  /** The cache entry's directory (or a `memory:` name for a cache that could not be used on disk). */
  readonly cacheEntry: string;
  /** Whether the instrumented modules were already instrumented (disk or this process). */
  readonly meterCacheHit: boolean;
  /** Where the load spent its time, in ms (`compile` includes fuel instrumentation). */
  readonly timingsMs: { readonly read: number; readonly transpile: number; readonly compile: number };
  /** `data:` URL of the verified glue module (cache/cache.ts). */
  readonly glueUrl: string;
  /** Core modules by the name the glue asks for, compiled with their memory capped (and instrumented). */
  readonly modules: Readonly<Record<string, WasmModule>>;
  /** The WASI its instances get (grants resolved at load, not per call). */
  readonly wasi: WasiConfig;
}

/** What {@link Engine.load} needs. */
export interface LoadOptions {
  readonly memoryMb: number;
  readonly maxLogBytes: number;
  readonly grants?: WasiGrants | undefined;
  /**
   * The embedder's verdict on a component's world, before anything is transpiled: a message saying
   * why it will not run, or undefined.
   */
  readonly check: (world: ComponentWorld) => string | undefined;
  /**
   * Compile the fuel-instrumented form of the core modules (default) instead of the plain one (only
   * a benchmark's unguarded baseline runs that).
   */
  readonly instrumented?: boolean;
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

/**
 * The engine: reads a component, checks it, transpiles it with jco (or takes it from the trusted
 * cache, cache/cache.ts), instruments its core modules with the meter (cached too), caps their
 * memories and compiles them. One per cache directory; loads of the same component share the
 * compiled modules for the life of the process.
 */
export class Engine {
  readonly #cacheDir: string;

  constructor(options: { readonly cacheDir?: string | undefined } = {}) {
    this.#cacheDir = options.cacheDir ?? defaultCacheDir();
  }

  /**
   * Load `path`. Rejects with a {@link LoadFailure} naming the cause: unreadable file, not
   * WebAssembly, a core module instead of a component, refused by `check`, memory over the cap, a
   * transpile failure, a module the meter cannot bound, a grant that cannot be used.
   */
  async load(path: string, options: LoadOptions): Promise<Component> {
    const fail = (message: string, cause?: unknown): never => {
      throw new LoadFailure(`component ${path}: ${message}`, cause === undefined ? {} : { cause });
    };
    const t0 = performance.now();
    let bytes: Uint8Array = new Uint8Array(0);
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch (error) {
      fail(`cannot read it (${detail(error)})`, error);
    }
    switch (binaryKind(bytes)) {
      case 'not-wasm':
        return fail('not a WebAssembly component (no WebAssembly header: garbage bytes or a text file?)');
      case 'core-module':
        return fail('a core WebAssembly module, not a component: make it a component exporting basis:hook/handler@1.0.0 (jco new / jco componentize)');
      case 'component':
        break;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const t1 = performance.now();

    let transpiler = '';
    try {
      transpiler = transpilerVersion();
    } catch (error) {
      // jco-transpile is an optional peer: not installed, the message says how to install it.
      fail(detail(error), error);
    }
    let entry = await readCacheEntry(this.#cacheDir, sha256, transpiler);
    const cacheHit = entry !== undefined;
    let world: ComponentWorld = { imports: [], exports: [] };
    if (entry === undefined) {
      try {
        world = await readWorld(bytes);
      } catch (error) {
        fail(`not a valid component (${detail(error)})`, error);
      }
    } else {
      world = entry.manifest;
    }
    // Before transpiling: a component the embedder will not run costs no more work.
    const problem = options.check(world);
    if (problem !== undefined) fail(problem);
    if (entry === undefined) {
      try {
        entry = await writeCacheEntry(this.#cacheDir, await transpileComponent(bytes, sha256, world));
      } catch (error) {
        return fail(`cannot transpile it (${detail(error)})`, error);
      }
    }
    const t2 = performance.now();

    let compiled: Compiled = { modules: {}, meterCacheHit: false };
    try {
      compiled = await compileModules(entry, Math.floor(options.memoryMb * 16), options.instrumented ?? true);
    } catch (error) {
      if (error instanceof MemoryCapError) fail(`memory_mb ${options.memoryMb}: ${error.message}`, error);
      if (error instanceof MeterError) fail(`cannot run it: the meter cannot bound it: ${error.message}`, error);
      // QuickJS-built guests use extended constant expressions, behind a V8 flag on Node 20.
      const hint = /constant expression/.test(detail(error)) ? '; this component needs node --experimental-wasm-extended-const' : '';
      fail(`cannot compile it (${detail(error)})${hint}`, error);
    }
    const t3 = performance.now();
    let grants: Pick<WasiConfig, 'env' | 'readOnlyDirs'> = { env: [], readOnlyDirs: [] };
    try {
      grants = await resolveGrants(options.grants);
    } catch (error) {
      if (error instanceof GrantError) fail(error.message, error.cause);
      throw error;
    }
    return {
      path,
      sha256,
      size: bytes.byteLength,
      world,
      cacheHit,
      cacheEntry: entry.dir,
      meterCacheHit: compiled.meterCacheHit,
      timingsMs: { read: t1 - t0, transpile: t2 - t1, compile: t3 - t2 },
      glueUrl: entry.glueUrl,
      modules: compiled.modules,
      wasi: { ...grants, maxLogBytes: options.maxLogBytes },
    };
  }
}
