import { constants } from 'node:fs';
import { access, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Whether a transpile cache directory may hold code this host will run. The cache is trusted code —
 * its glue runs inside the host — so it is held to what ssh asks of a private key: a directory only
 * this user (or root) can write, under ancestors nobody else can swap it out of. A directory that
 * fails (or that cannot be created or written) is not used at all: transpiled components are kept in
 * memory for the process instead, and the process is told once, with a warning naming
 * `BASIS_HOOKS_CACHE_DIR`.
 */
export type CacheDir =
  | { readonly kind: 'disk'; /** Real path of the directory. */ readonly dir: string }
  | { readonly kind: 'memory'; /** Why the directory is not used. */ readonly reason: string };

/** The warning code, for `process.on('warning')` and `--no-warnings`-style filtering. */
export const CACHE_WARNING_CODE = 'BASIS_HOOKS_CACHE_UNUSABLE';

const opened = new Map<string, Promise<CacheDir>>();
const warned = new Set<string>();

class Refused extends Error {}

function errno(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/**
 * Create `dir` and its missing ancestors one level at a time (mode 0700). Not `mkdir -p`:
 * `mkdir(..., { recursive: true })` loops forever on Node 20 when a level can never be created
 * (`/proc/x` answers ENOENT for ever), which hung `basis-hooks check`.
 */
async function ensureDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = dir; ; p = dirname(p)) {
    try {
      await lstat(p);
      break;
    } catch (error) {
      if (errno(error) !== 'ENOENT' || dirname(p) === p) throw new Refused(`cannot reach ${p} (${errno(error)})`);
      missing.push(p);
    }
  }
  for (const p of missing.reverse()) {
    try {
      await mkdir(p, { mode: 0o700 });
    } catch (error) {
      if (errno(error) !== 'EEXIST') throw new Refused(`cannot create ${p} (${errno(error)})`);
    }
  }
}

/** Owned by this user (or root) and writable by nobody else: the rule for the cache and everything in it. */
export async function privateProblem(path: string, kind: 'directory' | 'file'): Promise<string | undefined> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    return `cannot be read (${errno(error)})`;
  }
  if (kind === 'directory' ? !info.isDirectory() : !info.isFile()) return `is not a ${kind}${info.isSymbolicLink() ? ' (a symbolic link)' : ''}`;
  const me = uid();
  if (me === undefined) return undefined; // no POSIX ownership to check (Windows)
  if (info.uid !== me && info.uid !== 0) return `is owned by uid ${info.uid}, not by this user (uid ${me}) or root`;
  if ((info.mode & 0o022) !== 0) return `is writable by ${(info.mode & 0o020) !== 0 ? 'its group' : 'other users'} (mode ${octal(info.mode)})`;
  return undefined;
}

/** Every ancestor of `dir` must be owned by this user or root and not writable by others, unless sticky (like /tmp). */
async function ancestorsProblem(dir: string): Promise<string | undefined> {
  const me = uid();
  if (me === undefined) return undefined;
  for (let p = dirname(dir); ; p = dirname(p)) {
    const info = await stat(p);
    if (info.uid !== me && info.uid !== 0) return `its parent ${p} is owned by uid ${info.uid}, not by this user (uid ${me}) or root`;
    if ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0) {
      return `its parent ${p} is writable by others without the sticky bit (mode ${octal(info.mode)}): the cache could be swapped out`;
    }
    if (dirname(p) === p) return undefined;
  }
}

async function check(dir: string): Promise<CacheDir> {
  try {
    await ensureDirectory(dir);
    const real = await realpath(dir);
    const own = await privateProblem(real, 'directory');
    if (own !== undefined) throw new Refused(`${real} ${own}`);
    // Both chains: the real one, and the one named (a symlink's own directory decides where it points).
    for (const path of new Set([real, dir])) {
      const parents = await ancestorsProblem(path);
      if (parents !== undefined) throw new Refused(`${path}: ${parents}`);
    }
    try {
      await access(real, constants.W_OK | constants.X_OK);
    } catch (error) {
      throw new Refused(`${real} is not writable (${errno(error)})`);
    }
    // The one subdirectory entries live in is held to the same rule.
    const components = `${real}/components`;
    await ensureDirectory(components);
    const sub = await privateProblem(components, 'directory');
    if (sub !== undefined) throw new Refused(`${components} ${sub}`);
    return { kind: 'disk', dir: real };
  } catch (error) {
    return { kind: 'memory', reason: error instanceof Refused ? error.message : `${dir}: ${errno(error)}` };
  }
}

/** Say once per directory and process that the cache is in memory, and why. */
export function warnUnusable(dir: string, reason: string): void {
  if (warned.has(dir)) return;
  warned.add(dir);
  process.emitWarning(
    `basis-hooks: the component cache directory cannot be used: ${reason}. Transpiled components are kept in memory for this process only (every process transpiles again). Point BASIS_HOOKS_CACHE_DIR (or a hook's cache_dir) at a directory only this user can write.`,
    { code: CACHE_WARNING_CODE },
  );
}

/**
 * Open a cache directory: create it if needed (0700), check it may be trusted and written, and
 * remember the verdict for the process. Never throws and never hangs: a directory that cannot be used
 * is `memory`, with one warning.
 */
export function openCacheDir(dir: string): Promise<CacheDir> {
  const abs = resolve(dir);
  let pending = opened.get(abs);
  if (pending === undefined) {
    pending = check(abs).then((verdict) => {
      if (verdict.kind === 'memory') warnUnusable(abs, verdict.reason);
      return verdict;
    });
    opened.set(abs, pending);
  }
  return pending;
}

/** A directory that passed but then failed a write (disk full, permissions changed): memory from now on. */
export function demoteCacheDir(dir: string, reason: string): void {
  const abs = resolve(dir);
  opened.set(abs, Promise.resolve({ kind: 'memory', reason }));
  warnUnusable(abs, reason);
}
