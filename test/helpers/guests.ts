/**
 * Where the built test guests are, and a way to build them from a test when they are missing.
 * `npm run build-guests` (or `npx tsx scripts/build-guests.ts <lang>`) is the normal way; building
 * from a test is a convenience for a fresh checkout.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Repository root (no trailing slash). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** Build output of one guest language. */
export function guestBuildDir(lang: string): string {
  return join(ROOT, 'guest-examples', lang, 'build');
}

/** Directory of the WAT conformance guests (`<behaviour>.wasm`). */
export const WAT_CONFORMANCE_DIR = join(guestBuildDir('wat'), 'conformance');

/** The WAT test guests besides the conformance ones (see guest-examples/wat/). */
export const WAT_GUESTS = [
  'memory-bomb',
  'deep-recursion',
  'err',
  'wrong-event',
  'counter',
  'wasi-probe',
  'stdio',
  'stdin-exit',
  'sockets-import',
  'http-import',
  'handler-v2',
  'core-module',
  'big-initial-memory',
  'garbage',
] as const;
export type WatGuest = (typeof WAT_GUESTS)[number];

/** Path of a built WAT test guest. */
export function watGuest(name: WatGuest): string {
  return join(guestBuildDir('wat'), `${name}.wasm`);
}

/** A shared transpile cache for tests (gitignored `.cache/`), so runs after the first start warm. */
export const TEST_CACHE_DIR = join(ROOT, '.cache', 'test-components');

const built = new Map<string, Promise<void>>();

function hasWasm(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((e) => (e.isFile() && e.name.endsWith('.wasm')) || (e.isDirectory() && hasWasm(join(dir, e.name))));
}

/**
 * Build `lang`'s guests once per process when `outputs` (absolute paths) are missing — or, without
 * `outputs`, when its build directory holds no `.wasm` at all. Runs the real builder in a child
 * process (`scripts/build-guests.ts <lang>`) under a lock directory, so test files running in
 * parallel do not build the same guests at once.
 */
export function ensureGuestsBuilt(lang: string, outputs?: readonly string[]): Promise<void> {
  const missing = outputs === undefined ? !hasWasm(guestBuildDir(lang)) : outputs.some((o) => !existsSync(o));
  if (!missing) return Promise.resolve();
  let pending = built.get(lang);
  if (pending === undefined) {
    pending = buildLocked(lang);
    built.set(lang, pending);
  }
  return pending;
}

const run = promisify(execFile);

async function buildLocked(lang: string): Promise<void> {
  const lock = join(ROOT, 'guest-examples', lang, '.build-lock');
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      // Someone else is building; a lock older than 5 minutes is from a build that died.
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 300_000) await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-guests.ts'), lang], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Every WAT guest the WAT tests use. */
export function ensureWatGuestsBuilt(): Promise<void> {
  return ensureGuestsBuilt('wat', [...WAT_GUESTS.map(watGuest), join(WAT_CONFORMANCE_DIR, 'allow.wasm'), join(WAT_CONFORMANCE_DIR, 'oversized.wasm')]);
}
