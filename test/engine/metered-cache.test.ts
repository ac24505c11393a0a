import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { FUEL_EXPORT, METER_VERSION } from '../../host/engine/meter/instrument.js';
import { ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

describe('metered isolation: instrumented modules are cached on disk beside the transpiled ones', () => {
  let cacheDir: string;
  const transports: ComponentTransport[] = [];
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    cacheDir = await mkdtemp(join(tmpdir(), 'basis-metered-cache-'));
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await rm(cacheDir, { recursive: true, force: true });
  });
  function open(memoryMb: number, isolation: 'metered' | 'worker' = 'metered'): ComponentTransport {
    const t = componentTransport({ path: watGuest('counter'), cache_dir: cacheDir, memory_mb: memoryMb, isolation });
    transports.push(t);
    return t;
  }

  it('the first load instruments and stores them; a second load reads them back without instrumenting', async () => {
    const first = await open(16).load();
    expect(first.metering?.cache_hit).toBe(false);
    const stored = join(first.cache_entry, `metered-v${METER_VERSION}`);
    const files = (await readdir(stored)).sort();
    expect(files).toEqual(['hook.core.wasm', 'manifest.json']);
    const instrumented = await readFile(join(stored, 'hook.core.wasm'));
    const transpiled = await readFile(join(first.cache_entry, 'hook.core.wasm'));
    expect(instrumented.includes(FUEL_EXPORT)).toBe(true);
    expect(transpiled.includes(FUEL_EXPORT)).toBe(false);
    const written = (await stat(join(stored, 'hook.core.wasm'))).mtimeMs;

    // Another memory cap: compiled again in this process, from the stored modules.
    const second = open(17);
    const info = await second.load();
    expect(info.metering?.cache_hit).toBe(true);
    expect(info.cache_hit).toBe(true);
    expect((await stat(join(stored, 'hook.core.wasm'))).mtimeMs).toBe(written);
    expect(await second.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    // The same cap again: already compiled in this process.
    expect((await open(16).load()).metering?.cache_hit).toBe(true);
  });

  it('a damaged store is rebuilt, not trusted; worker isolation runs the same instrumented modules', async () => {
    const info = await open(18).load();
    const stored = join(info.cache_entry, `metered-v${METER_VERSION}`);
    await rm(join(stored, 'manifest.json'));
    const again = open(19);
    expect((await again.load()).metering?.cache_hit).toBe(false);
    expect(await readdir(stored)).toContain('manifest.json');
    expect(await again.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true });
    expect((await open(20, 'worker').load()).metering?.cache_hit).toBe(true);
  });
});
