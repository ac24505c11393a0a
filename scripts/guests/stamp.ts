/**
 * Up-to-date checks for guest builds: an output is fresh when a stamp beside it records the sha256 of
 * its inputs (sources, glue, WIT, tool versions). Content hashes, not mtimes: a fresh clone rebuilds
 * only what changed, and CI's rebuilds are decided by content.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

/** Hash of the given files' contents plus extra strings (e.g. a toolchain version or build flags). */
export async function inputsHash(files: readonly string[], extra: readonly string[] = []): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(file));
  }
  for (const e of extra) hash.update(e);
  return hash.digest('hex');
}

/** True when `output` exists and its stamp matches `hash`. */
export async function isFresh(output: string, hash: string): Promise<boolean> {
  if (!existsSync(output) || !existsSync(`${output}.stamp`)) return false;
  return (await readFile(`${output}.stamp`, 'utf8')).trim() === hash;
}

/** Record that `output` was built from inputs hashing to `hash`. */
export async function writeStamp(output: string, hash: string): Promise<void> {
  await writeFile(`${output}.stamp`, `${hash}\n`);
}
