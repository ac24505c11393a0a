import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { binaryKind, type BinaryKind } from '../../engine/compile/binary.js';
import { defaultCacheDir, readCacheEntry } from '../../engine/cache/cache.js';
import { readWorld, transpilerVersion } from '../../engine/compile/transpile.js';
import { checkWorld } from './world.js';

/** What {@link inspectComponent} reports: enough to tell whether and why a component would load. */
export interface ComponentInspection {
  readonly path: string;
  readonly kind: BinaryKind;
  readonly size: number;
  readonly sha256: string;
  /** Fully qualified, with versions. Empty when the file is not a component. */
  readonly imports: readonly string[];
  readonly exports: readonly string[];
  /** The handler this host would call, when the component passes the checks. */
  readonly handler?: string;
  /** Why it would not load (version, refused import, not a component), when it would not. */
  readonly problem?: string;
  /** Whether its transpiled form is already in the cache. */
  readonly cached: boolean;
}

/**
 * Look at a component without running it: kind, hash, world and the verdict of the loader's checks
 * (handler version, import allowlist). Memory cap and grants are not checked (they depend on the
 * hook's options). For a `basis-hooks inspect` command. Rejects with a `PackageMissingError` when
 * `@bytecodealliance/jco-transpile` (an optional peer dependency) is not installed.
 */
export async function inspectComponent(path: string, options: { readonly cache_dir?: string } = {}): Promise<ComponentInspection> {
  const bytes = new Uint8Array(await readFile(path));
  const kind = binaryKind(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = { path, kind, size: bytes.byteLength, sha256 };
  if (kind !== 'component') {
    const problem = kind === 'core-module' ? 'a core WebAssembly module, not a component' : 'not WebAssembly';
    return { ...base, imports: [], exports: [], problem, cached: false };
  }
  const entry = await readCacheEntry(options.cache_dir ?? defaultCacheDir(), sha256, transpilerVersion());
  let world;
  try {
    world = entry?.manifest ?? (await readWorld(bytes));
  } catch (error) {
    return { ...base, imports: [], exports: [], problem: `not a valid component (${error instanceof Error ? error.message : String(error)})`, cached: false };
  }
  const check = checkWorld(world);
  const verdict = check.ok ? { handler: check.handler } : { problem: check.message };
  return { ...base, imports: world.imports, exports: world.exports, ...verdict, cached: entry !== undefined };
}
