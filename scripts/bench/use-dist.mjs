/**
 * `node --import tsx --import ./scripts/bench/use-dist.mjs …`: the bench measures what users run — the
 * built package (dist/, plain JavaScript; its worker entry starts without tsx) — rather than the
 * TypeScript sources through tsx, whose transform adds a helper call to every function it creates
 * (a few hundred ns on the hot path) and whose worker entry is bundled on first use. Every import that
 * resolves into host/ is redirected to its dist/ twin, so the bench and the library share one copy.
 * Only when dist/ was built from the sources as they are (scripts/build.mjs; `npm run bench` builds first); otherwise
 * the sources are measured, and BASIS_BENCH_LIBRARY says so to the report.
 */
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { libraryIsFresh } from '../build.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const fresh = libraryIsFresh();
process.env.BASIS_BENCH_LIBRARY = fresh ? 'dist' : 'sources';
if (fresh) register(new URL('./dist-hooks.mjs', import.meta.url), { data: { host: pathToFileURL(join(root, 'host')).href, dist: pathToFileURL(join(root, 'dist')).href } });
