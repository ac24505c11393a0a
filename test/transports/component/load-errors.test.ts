import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookError } from '../../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest, type WatGuest } from '../../helpers/guests.js';
import { CONTEXT, preRequest } from './requests.js';

const transports: ComponentTransport[] = [];

function transport(path: string, memoryMb?: number): ComponentTransport {
  const t = componentTransport({ path, cache_dir: TEST_CACHE_DIR, ...(memoryMb === undefined ? {} : { memory_mb: memoryMb }) });
  transports.push(t);
  return t;
}

async function loadError(path: string, memoryMb?: number): Promise<{ code: string; message: string }> {
  const error: unknown = await transport(path, memoryMb).load().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHookError(error)) throw new Error(`expected a HookError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('component loading refuses what it cannot run, saying why', () => {
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  const cases: ReadonlyArray<{ name: string; guest: WatGuest; mentions: string }> = [
    { name: 'garbage bytes', guest: 'garbage', mentions: 'not a WebAssembly component' },
    { name: 'a core module that is not a component', guest: 'core-module', mentions: 'core WebAssembly module' },
  ];
  for (const c of cases) {
    it(`${c.name} → load_failed`, async () => {
      const error = await loadError(watGuest(c.guest));
      expect(error.code).toBe('load_failed');
      expect(error.message).toContain(c.mentions);
    });
  }

  it('another major version of the handler → load_failed naming both versions', async () => {
    const error = await loadError(watGuest('handler-v2'));
    expect(error.code).toBe('load_failed');
    expect(error.message).toContain('basis:hook/handler@2.0.0');
    expect(error.message).toContain('1.x');
  });

  it('a memory that starts above memory_mb → load_failed', async () => {
    const error = await loadError(watGuest('big-initial-memory'), 16);
    expect(error.code).toBe('load_failed');
    expect(error.message).toContain('memory_mb 16');
    // Under a cap that fits, the same component loads and answers.
    const ok = transport(watGuest('big-initial-memory'), 80);
    expect(await ok.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'allow' } });
  });

  it('a missing file → load_failed', async () => {
    const error = await loadError(join(TEST_CACHE_DIR, 'no-such-component.wasm'));
    expect(error.code).toBe('load_failed');
  });

  it('a call to a component that cannot load fails load_failed (it never allows)', async () => {
    const result = await transport(watGuest('handler-v2')).invoke(preRequest(), CONTEXT);
    expect(result).toMatchObject({ ok: false, failure: { code: 'load_failed' } });
  });

  it('load() is idempotent and check() is load()', async () => {
    const t = transport(watGuest('err'));
    const [a, b] = await Promise.all([t.load(), t.load()]);
    expect(a).toBe(b);
    await expect(t.check()).resolves.toBeUndefined();
    expect(a).toMatchObject({ handler: 'basis:hook/handler@1.0.0', world_version: '1.0.0', exports: ['basis:hook/handler@1.0.0'] });
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
