import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

describe('component transpile cache: keyed by sha256, on disk, shared across transports', () => {
  let cacheDir: string;
  const transports: ComponentTransport[] = [];
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    cacheDir = await mkdtemp(join(tmpdir(), 'basis-cache-'));
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await rm(cacheDir, { recursive: true, force: true });
  });
  function open(): ComponentTransport {
    const t = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'deny.wasm'), cache_dir: cacheDir });
    transports.push(t);
    return t;
  }

  it('the first load transpiles into the cache; a second transport loads from it without transpiling', async () => {
    const first = await open().load();
    expect(first.cache_hit).toBe(false);
    const entries = await readdir(join(cacheDir, 'components'));
    // One complete entry, named by the component's sha256; no temporary directory left behind.
    expect(entries).toHaveLength(1);
    expect(entries[0]?.startsWith(first.sha256)).toBe(true);
    const manifest = JSON.parse(await readFile(join(first.cache_entry, 'manifest.json'), 'utf8')) as { sha256: string; exports: string[] };
    expect(manifest).toMatchObject({ sha256: first.sha256, exports: ['basis:hook/handler@1.0.0'] });
    const written = (await stat(join(first.cache_entry, 'manifest.json'))).mtimeMs;

    const second = open();
    const info = await second.load();
    expect(info.cache_hit).toBe(true);
    expect(info.cache_entry).toBe(first.cache_entry);
    expect((await stat(join(first.cache_entry, 'manifest.json'))).mtimeMs).toBe(written);
    expect(await readdir(join(cacheDir, 'components'))).toEqual(entries);
    expect(await second.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'deny', reason: 'denied by conformance hook' } });
  });

  it('a damaged cache entry is rebuilt, not trusted', async () => {
    const info = await open().load();
    await rm(join(info.cache_entry, 'manifest.json'));
    const again = open();
    const reloaded = await again.load();
    expect(reloaded.cache_hit).toBe(false);
    expect(await again.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { decision: 'deny' } });
  });
});
