import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookError } from '../../host/index.js';
import { componentTransport, inspectComponent, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest, type WatGuest } from '../helpers/guests.js';

describe('component imports: only the allowlist loads', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  const refused: ReadonlyArray<{ guest: WatGuest; import: string }> = [
    { guest: 'sockets-import', import: 'wasi:sockets/instance-network@0.2.12' },
    { guest: 'http-import', import: 'wasi:http/outgoing-handler@0.2.12' },
  ];
  for (const r of refused) {
    it(`a component importing ${r.import} fails to load, naming it`, async () => {
      const transport = componentTransport({ path: watGuest(r.guest), cache_dir: TEST_CACHE_DIR });
      transports.push(transport);
      const error: unknown = await transport.load().then(() => undefined, (e: unknown) => e);
      expect(isHookError(error)).toBe(true);
      if (!isHookError(error)) return;
      expect(error.code).toBe('load_failed');
      expect(error.message).toContain(r.import);
    });
  }

  it('inspect shows the imports and the verdict without running anything', async () => {
    const bad = await inspectComponent(watGuest('sockets-import'), { cache_dir: TEST_CACHE_DIR });
    expect(bad.kind).toBe('component');
    expect(bad.imports).toContain('wasi:sockets/instance-network@0.2.12');
    expect(bad.problem).toContain('wasi:sockets/instance-network@0.2.12');
    const good = await inspectComponent(watGuest('wasi-probe'), { cache_dir: TEST_CACHE_DIR });
    expect(good.problem).toBeUndefined();
    expect(good.handler).toBe('basis:hook/handler@1.0.0');
    expect(good.imports).toEqual(expect.arrayContaining(['wasi:cli/environment@0.2.12', 'wasi:filesystem/preopens@0.2.12']));
  });
});
