/**
 * `node --import tsx --import ./scripts/bench/use-dist.mjs …`: the bench measures what users run — the
 * built package (dist/, plain JavaScript; its worker entry starts without tsx) — rather than the
 * TypeScript sources through tsx, whose transform adds a helper call to every function it creates
 * (a few hundred ns on the hot path) and whose worker bootstrap adds start-up time. Every import that
 * resolves into host/ is redirected to its dist/ twin, so the bench and the library share one copy.
 * Only when dist/ is at least as new as every host source (`npm run bench` builds first); otherwise
 * the sources are measured, and BASIS_BENCH_LIBRARY says so to the report.
 */
import { readdirSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let fresh = false;
try {
  fresh = newestSource(join(root, 'host')) <= statSync(join(root, 'dist', 'index.js')).mtimeMs;
} catch {
  fresh = false;
}
process.env.BASIS_BENCH_LIBRARY = fresh ? 'dist' : 'sources';
if (fresh) register(new URL('./dist-hooks.mjs', import.meta.url), { data: { host: pathToFileURL(join(root, 'host')).href, dist: pathToFileURL(join(root, 'dist')).href } });
