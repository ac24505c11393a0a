/**
 * One cold-start measurement, in a fresh process (so no module-level cache of compiled modules is
 * warm): `tsx scripts/bench/cold-child.ts <component> <cache_dir> <isolation> [dist|sources]`. Prints
 * one JSON line (a ColdSample) on stdout. `dist` imports the built library (dist/index.js, what users
 * run), `sources` the TypeScript sources.
 */
import { CALL } from './guests.js';
import type { ColdSample } from './result.js';

function meterCacheHit(metering: unknown): boolean | null {
  const hit = (metering as { cache_hit?: unknown } | undefined)?.cache_hit;
  return typeof hit === 'boolean' ? hit : null;
}

async function main(): Promise<void> {
  const [path, cacheDir, isolation, library = 'sources'] = process.argv.slice(2);
  if (path === undefined || cacheDir === undefined || isolation === undefined) {
    throw new Error('usage: cold-child.ts <component> <cache_dir> <isolation> [dist|sources]');
  }
  const t0 = performance.now();
  // The built library has the same API; typed by the sources.
  const host: typeof import('../../host/index.js') =
    library === 'dist' ? ((await import(new URL('../../dist/index.js', import.meta.url).href)) as typeof import('../../host/index.js')) : await import('../../host/index.js');
  const importMs = performance.now() - t0;

  const t1 = performance.now();
  const transport = host.componentTransport({ path, cache_dir: cacheDir, isolation: isolation as 'worker' });
  const runner = new host.HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }]);
  const first = await runner.pre(CALL);
  const firstMs = performance.now() - t1;
  if (first.decision !== 'allow') throw new Error(`${path}: expected allow, got ${JSON.stringify(first)}`);
  const t2 = performance.now();
  await runner.pre(CALL);
  const secondUs = (performance.now() - t2) * 1000;
  const info = await transport.load();
  await runner.close();
  const sample: ColdSample = {
    first_call_ms: firstMs,
    second_call_us: secondUs,
    timings_ms: { ...info.timings_ms },
    cache_hit: info.cache_hit,
    // Read loosely: the field exists only in hosts with metered isolation.
    meter_cache_hit: meterCacheHit((info as { metering?: unknown }).metering),
    import_ms: importMs,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
