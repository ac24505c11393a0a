import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { publishDirectory } from './atomic-dir.js';
import { demoteCacheDir, openCacheDir, privateProblem } from './cache-dir.js';

/**
 * The cache of transpiled components, keyed by the component's sha256, the transpiler's version (a
 * new jco writes different glue) and the entry format. On disk an entry is a directory holding jco's
 * glue (`hook.mjs`), the core modules (`*.wasm`, as transpiled, before any memory cap) and
 * `manifest.json`, written into a temporary directory and renamed into place.
 *
 * The cache is code the host runs, so nothing in it is taken on trust:
 *
 * - the directory must pass {@link openCacheDir} (private to this user, as ssh asks of a key) or it
 *   is not used at all — entries then live in memory for the process, after one warning;
 * - the manifest records every file's sha256 when the host writes it, and every file is verified
 *   before use: the bytes that are verified are the bytes that run (the glue is imported from a
 *   `data:` URL of them, modules are compiled from them), so nothing can be swapped in between;
 * - a missing, truncated or altered entry is not an error: it is rebuilt, and replaces the bad one.
 */

/**
 * Bumped when what an entry holds changes (2: glue with jco's debug logging silenced; 3: sha256 of every
 * file, strict UTF-8 decoders; 4: the glue's lifts and handle tables bounded, glue-patch.ts).
 */
export const CACHE_FORMAT = 4;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const FileName = z.string().regex(/^[\w.-]+\.(wasm|mjs)$/);

export const CacheManifest = z.strictObject({
  format: z.literal(CACHE_FORMAT),
  sha256: Sha256,
  transpiler: z.string(),
  /** The component's world, as printed by jco. */
  imports: z.array(z.string()),
  exports: z.array(z.string()),
  /** File names of the core modules, as the glue asks for them. */
  modules: z.array(z.string().regex(/^[\w.-]+\.wasm$/)),
  /** sha256 of every file of the entry (glue and modules), recorded when the host wrote it. */
  files: z.record(FileName, Sha256),
});
export type CacheManifest = z.infer<typeof CacheManifest>;

/** A verified cache entry, on disk or in memory. */
export interface CacheEntry {
  /** The entry's directory; for an entry kept in memory, a `memory:` name that says so. */
  readonly dir: string;
  readonly location: 'disk' | 'memory';
  readonly manifest: CacheManifest;
  /** `data:` URL of the verified glue module: what the instance imports. */
  readonly glueUrl: string;
  /** A core module's verified bytes (rejects for a name the entry does not have). */
  readModule(name: string): Promise<Uint8Array>;
}

/** What gets written for one component (the manifest's `files` are computed on write). */
export interface CacheContents {
  readonly manifest: Omit<CacheManifest, 'files'>;
  readonly glue: Uint8Array;
  readonly modules: Readonly<Record<string, Uint8Array>>;
}

const GLUE_FILE = 'hook.mjs';

/** Entries of caches that cannot be used on disk, for the life of the process. */
const memory = new Map<string, CacheEntry>();

/** A cache file that does not match what the host wrote. */
export class CacheIntegrityError extends Error {
  override readonly name = 'CacheIntegrityError';
}

/** `$BASIS_HOOKS_CACHE_DIR`, else `~/.cache/basis-hooks`. */
export function defaultCacheDir(): string {
  const fromEnv = process.env.BASIS_HOOKS_CACHE_DIR;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.cache', 'basis-hooks');
}

/** sha256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function entryName(sha256: string, transpiler: string): string {
  return `${sha256}-${transpiler.replace(/[^\w.-]/g, '_')}-f${CACHE_FORMAT}`;
}

/** The glue's source text, from the URL {@link CacheEntry.glueUrl} gives (a `data:` URL of the verified bytes). */
export function glueSource(url: string): string {
  const prefix = 'data:text/javascript;base64,';
  if (!url.startsWith(prefix)) throw new Error('the glue URL is not one the cache made');
  return Buffer.from(url.slice(prefix.length), 'base64').toString('utf8');
}

function glueUrl(glue: Uint8Array): string {
  return `data:text/javascript;base64,${Buffer.from(glue.buffer, glue.byteOffset, glue.byteLength).toString('base64')}`;
}

function memoryEntry(contents: CacheContents): CacheEntry {
  const manifest = withFiles(contents);
  const key = entryName(manifest.sha256, manifest.transpiler);
  const existing = memory.get(key);
  if (existing !== undefined) return existing;
  const created = entryOf(`memory:${key}`, 'memory', manifest, contents.glue, contents.modules);
  memory.set(key, created);
  return created;
}

function withFiles(contents: CacheContents): CacheManifest {
  const files: Record<string, string> = { [GLUE_FILE]: sha256Hex(contents.glue) };
  for (const [name, bytes] of Object.entries(contents.modules)) files[name] = sha256Hex(bytes);
  return { ...contents.manifest, files };
}

/** Read a file of an entry once, check it is private and matches its recorded sha256, and return those bytes. */
async function readVerified(dir: string, name: string, manifest: CacheManifest): Promise<Uint8Array> {
  const expected = manifest.files[name];
  if (expected === undefined) throw new CacheIntegrityError(`${name} is not in the manifest`);
  const file = join(dir, name);
  const problem = await privateProblem(file, 'file');
  if (problem !== undefined) throw new CacheIntegrityError(`${file} ${problem}`);
  const bytes = new Uint8Array(await readFile(file));
  if (sha256Hex(bytes) !== expected) throw new CacheIntegrityError(`${file} does not match the sha256 recorded when it was written`);
  return bytes;
}

/** An entry whose bytes are all in hand (just verified, or just written). */
function entryOf(dir: string, location: CacheEntry['location'], manifest: CacheManifest, glue: Uint8Array, modules: Readonly<Record<string, Uint8Array>>): CacheEntry {
  return {
    dir,
    location,
    manifest,
    glueUrl: glueUrl(glue),
    readModule: async (name) => {
      const bytes = modules[name];
      if (bytes === undefined) throw new CacheIntegrityError(`no core module ${name} in the entry`);
      return bytes;
    },
  };
}

/**
 * A disk entry with every file read once and verified, or undefined when it is not exactly what the
 * host wrote. All files up front (not as they are asked for), so a bad module is found while the
 * entry can still be rebuilt, not when compiling it would fail the load.
 */
async function readDiskEntry(dir: string, sha256: string, transpiler: string): Promise<CacheEntry | undefined> {
  if ((await privateProblem(dir, 'directory')) !== undefined) return undefined;
  let manifest: CacheManifest;
  try {
    if ((await privateProblem(join(dir, 'manifest.json'), 'file')) !== undefined) return undefined;
    const parsed = CacheManifest.safeParse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    if (!parsed.success) return undefined;
    manifest = parsed.data;
  } catch {
    return undefined;
  }
  if (manifest.sha256 !== sha256 || manifest.transpiler !== transpiler) return undefined;
  try {
    const glue = await readVerified(dir, GLUE_FILE, manifest);
    const modules: Record<string, Uint8Array> = {};
    for (const name of manifest.modules) modules[name] = await readVerified(dir, name, manifest);
    return entryOf(dir, 'disk', manifest, glue, modules);
  } catch {
    return undefined;
  }
}

/**
 * The entry for a component, or undefined when there is none — or when what is there is not exactly
 * what the host wrote (missing file, truncated, edited, loose permissions): the caller rebuilds it.
 */
export async function readCacheEntry(cacheDir: string, sha256: string, transpiler: string): Promise<CacheEntry | undefined> {
  const opened = await openCacheDir(cacheDir);
  const name = entryName(sha256, transpiler);
  if (opened.kind === 'memory') return memory.get(name);
  return readDiskEntry(join(opened.dir, 'components', name), sha256, transpiler);
}

/** A core module of an entry: the verified bytes (these are what gets compiled). */
export async function readCachedModule(cached: CacheEntry, name: string): Promise<Uint8Array> {
  return cached.readModule(name);
}

/**
 * Write an entry atomically (temp dir + rename), recording every file's sha256. If another writer got
 * there first with a valid entry, theirs stays. When the directory cannot be used (or the write
 * fails), the entry is kept in memory instead, after one warning.
 */
export async function writeCacheEntry(cacheDir: string, contents: CacheContents): Promise<CacheEntry> {
  const opened = await openCacheDir(cacheDir);
  if (opened.kind === 'memory') return memoryEntry(contents);
  const manifest = withFiles(contents);
  const dir = join(opened.dir, 'components', entryName(manifest.sha256, manifest.transpiler));
  try {
    await publishDirectory(join(opened.dir, 'components'), dir, { [GLUE_FILE]: contents.glue, ...contents.modules }, manifest, async () =>
      (await readDiskEntry(dir, manifest.sha256, manifest.transpiler)) !== undefined,
    );
  } catch (error) {
    demoteCacheDir(cacheDir, `writing ${dir} failed (${error instanceof Error ? error.message : String(error)})`);
    return memoryEntry(contents);
  }
  // The entry handed back is built from the bytes in hand, not read back: nothing to verify.
  return entryOf(dir, 'disk', manifest, contents.glue, contents.modules);
}
