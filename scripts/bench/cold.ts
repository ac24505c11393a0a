/**
 * Cold start: the first call of a component hook in a fresh process (no compiled module cached in
 * memory), with an empty transpile cache and then with the cache that run filled. Each measurement
 * is a child process running cold-child.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libraryIsFresh } from '../build.mjs';
import { ROOT } from './guests.js';
import { ColdSampleSchema, type ColdSample } from './result.js';

const CHILD = join(ROOT, 'scripts', 'bench', 'cold-child.ts');

/**
 * Which build of the library the children import: `dist` (what users run) when it was built from the
 * sources as they are (scripts/build.mjs), else the sources through tsx (whose worker entry is bundled
 * on first use, adding a few hundred ms to a worker's start).
 */
export async function coldLibrary(): Promise<'dist' | 'sources'> {
  return libraryIsFresh() ? 'dist' : 'sources';
}

function runChild(path: string, cacheDir: string, isolation: string, library: 'dist' | 'sources'): Promise<ColdSample> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, cacheDir, isolation, library], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`cold-start child for ${path} (${isolation}) exited ${String(code)}: ${err.trim().split('\n')[0] ?? ''}`));
        return;
      }
      try {
        resolve(ColdSampleSchema.parse(JSON.parse(out.trim().split('\n').pop() ?? '')));
      } catch (error) {
        reject(new Error(`cold-start child for ${path}: unreadable output ${JSON.stringify(out)}`, { cause: error }));
      }
    });
  });
}

/** The repeat with the fastest first call: the other agents on a shared machine only ever add time. */
function best(samples: readonly ColdSample[]): ColdSample {
  const [first, ...rest] = samples;
  if (first === undefined) throw new Error('no cold-start samples');
  return rest.reduce((a, b) => (b.first_call_ms < a.first_call_ms ? b : a), first);
}

/** Cold (empty cache) and warm (filled cache) first calls, each the best of `repeats` fresh processes. */
export async function coldStart(
  path: string,
  isolation: string,
  repeats: number,
  library: 'dist' | 'sources',
): Promise<{ cold: ColdSample; warm: ColdSample }> {
  const cold: ColdSample[] = [];
  const warm: ColdSample[] = [];
  for (let i = 0; i < repeats; i++) {
    const cacheDir = await mkdtemp(join(tmpdir(), 'basis-bench-cold-'));
    try {
      cold.push(await runChild(path, cacheDir, isolation, library));
      warm.push(await runChild(path, cacheDir, isolation, library));
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  }
  return { cold: best(cold), warm: best(warm) };
}
