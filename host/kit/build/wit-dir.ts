import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPackageFile, wasiWitFile, type WasiPackage } from '../package-files.js';

/** The WASI packages a world importing any of wasi:cli, io, clocks, filesystem, random or sockets resolves against. */
export const WASI_CLI_PACKAGES: readonly WasiPackage[] = ['cli', 'clocks', 'filesystem', 'io', 'random', 'sockets'];

/** A temporary WIT directory; remove it with `dispose`. */
export interface WitDir {
  readonly path: string;
  dispose(): Promise<void>;
}

/**
 * A WIT directory for a world beyond the plain hook world: `files` at its root (the world), and as
 * `deps/` the package's `basis:hook` WIT and the shipped WASI packages it may use — the layout
 * wit-parser resolves, so the toolchains see exactly the package's WIT and nothing from the network.
 */
export async function witDir(files: Readonly<Record<string, string>>, wasi: readonly WasiPackage[]): Promise<WitDir> {
  const path = await mkdtemp(join(tmpdir(), 'basis-hooks-wit-'));
  try {
    await mkdir(join(path, 'deps'));
    for (const [name, text] of Object.entries(files)) await writeFile(join(path, name), text);
    await writeFile(join(path, 'deps', 'basis-hook.wit'), await readPackageFile('wit/hook.wit'));
    for (const pkg of wasi) await writeFile(join(path, 'deps', `wasi-${pkg}.wit`), await readFile(wasiWitFile(pkg), 'utf8'));
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
  return { path, dispose: () => rm(path, { recursive: true, force: true }) };
}
