/**
 * Committed prebuilt components for guests whose toolchain is not on npm (C, Rust): copied into
 * build/ on machines without the toolchain, refreshed from a real build with
 * `npm run build-guests -- c rust --update-prebuilt`.
 * A manifest records the source hash each copy was built from, so a test can fail when they drift.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { ROOT } from './catalog.js';

type Log = (message: string) => void;

/**
 * For each output (`guard`, `std/guard`...), the source hash it was built from; the compiler; and
 * `built_with`, a hash of the compiler's version and the kit's build code: a checkout whose compiler
 * and kit give the same hash would build exactly these bytes from the same sources, so it may copy
 * them instead (the build is deterministic; CI rebuilds from source anyway).
 */
export interface PrebuiltManifest {
  readonly compiler: string;
  readonly built_with: string;
  readonly guests: Record<string, string>;
}

/** The prebuilt manifest of a directory, or undefined when there is none or it does not parse. */
export async function readPrebuiltManifest(prebuiltDir: string): Promise<PrebuiltManifest | undefined> {
  try {
    const parsed = JSON.parse(await readFile(manifestPath(prebuiltDir), 'utf8')) as Partial<PrebuiltManifest>;
    return typeof parsed.compiler === 'string' && typeof parsed.built_with === 'string' && typeof parsed.guests === 'object' && parsed.guests !== null
      ? { compiler: parsed.compiler, built_with: parsed.built_with, guests: parsed.guests }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The manifest's path inside a prebuilt directory. */
export function manifestPath(prebuiltDir: string): string {
  return join(prebuiltDir, 'manifest.json');
}

/** Every `.wasm` under `dir`, as paths relative to it. */
export async function wasmFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.wasm')).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** No toolchain: copy the committed prebuilt components into build/ (no stamps: a real build replaces them). */
export async function copyPrebuilt(prebuiltDir: string, buildDir: string, log: Log): Promise<void> {
  for (const file of await wasmFiles(prebuiltDir)) {
    const to = join(buildDir, file);
    await mkdir(dirname(to), { recursive: true });
    await rm(`${to}.stamp`, { force: true });
    await cp(join(prebuiltDir, file), to);
  }
  log(`copied the prebuilt components from ${relative(ROOT, prebuiltDir)}/`);
}

/** One freshly built output to commit: its key in the manifest, where it was built, its source hash. */
export interface PrebuiltEntry {
  readonly key: string;
  readonly built: string;
  readonly sourceHash: string;
}

/** Replace prebuilt/ with the current build outputs and record their source hashes. */
export async function updatePrebuilt(prebuiltDir: string, compiler: string, builtWith: string, entries: readonly PrebuiltEntry[], log: Log): Promise<void> {
  await rm(prebuiltDir, { recursive: true, force: true });
  const guests: Record<string, string> = {};
  for (const entry of entries) {
    const to = join(prebuiltDir, `${entry.key}.wasm`);
    await mkdir(dirname(to), { recursive: true });
    await cp(entry.built, to);
    guests[entry.key] = entry.sourceHash;
  }
  const manifest: PrebuiltManifest = { compiler, built_with: builtWith, guests };
  await writeFile(manifestPath(prebuiltDir), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`updated ${relative(ROOT, prebuiltDir)}/ (${entries.length} components)`);
}
