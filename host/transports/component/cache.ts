import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { publishDirectory } from './atomic-dir.js';

/**
 * The on-disk cache of transpiled components, keyed by the component's sha256 (and the transpiler's
 * version: a new jco writes different glue). An entry is a directory holding jco's glue (`hook.mjs`),
 * the core modules (`*.wasm`, as transpiled, before any memory cap) and `manifest.json`. Entries are
 * written into a temporary directory and renamed into place, so a reader never sees half an entry and
 * two processes filling the same entry do not corrupt it.
 */

/** Bumped when what an entry holds changes (2: glue with jco's debug logging silenced; 3: strict UTF-8 decoders). */
export const CACHE_FORMAT = 3;

export const CacheManifest = z.strictObject({
  format: z.literal(CACHE_FORMAT),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  transpiler: z.string(),
  /** The component's world, as printed by jco. */
  imports: z.array(z.string()),
  exports: z.array(z.string()),
  /** File names of the core modules, as the glue asks for them. */
  modules: z.array(z.string().regex(/^[\w.-]+\.wasm$/)),
});
export type CacheManifest = z.infer<typeof CacheManifest>;

/** A cache entry that is complete on disk. */
export interface CacheEntry {
  readonly dir: string;
  readonly manifest: CacheManifest;
  /** `file:` URL of the glue module the worker imports. */
  readonly glueUrl: string;
}

/** What gets written for one component. */
export interface CacheContents {
  readonly manifest: CacheManifest;
  readonly glue: Uint8Array;
  readonly modules: Readonly<Record<string, Uint8Array>>;
}

const GLUE_FILE = 'hook.mjs';

/** `$BASIS_HOOKS_CACHE_DIR`, else `~/.cache/basis-hooks`. */
export function defaultCacheDir(): string {
  const fromEnv = process.env.BASIS_HOOKS_CACHE_DIR;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.cache', 'basis-hooks');
}

function entryDir(cacheDir: string, sha256: string, transpiler: string): string {
  return join(cacheDir, 'components', `${sha256}-${transpiler.replace(/[^\w.-]/g, '_')}`);
}

function entry(dir: string, manifest: CacheManifest): CacheEntry {
  return { dir, manifest, glueUrl: pathToFileURL(join(dir, GLUE_FILE)).href };
}

/** The entry for a component, or undefined when there is none (or it is unreadable: it is rebuilt). */
export async function readCacheEntry(cacheDir: string, sha256: string, transpiler: string): Promise<CacheEntry | undefined> {
  const dir = entryDir(cacheDir, sha256, transpiler);
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const manifest = CacheManifest.safeParse(parsed);
  if (!manifest.success || manifest.data.sha256 !== sha256 || manifest.data.transpiler !== transpiler) return undefined;
  return entry(dir, manifest.data);
}

/** Read a core module of an entry. */
export async function readCachedModule(cached: CacheEntry, name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(cached.dir, name)));
}

/** Write an entry atomically (temp dir + rename). If another writer got there first, theirs stays. */
export async function writeCacheEntry(cacheDir: string, contents: CacheContents): Promise<CacheEntry> {
  const { manifest } = contents;
  const dir = entryDir(cacheDir, manifest.sha256, manifest.transpiler);
  const parent = join(cacheDir, 'components');
  await mkdir(parent, { recursive: true });
  await publishDirectory(parent, dir, { [GLUE_FILE]: contents.glue, ...contents.modules }, manifest, async () =>
    (await readCacheEntry(cacheDir, manifest.sha256, manifest.transpiler)) !== undefined,
  );
  return entry(dir, manifest);
}
