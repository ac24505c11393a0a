import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { firstCall, timed } from './runaways.js';

const MEMORY_MB = 64;
/**
 * The documented bound (docs/sandbox-and-limits.md): the host's RSS grows by at most this many times memory_mb while
 * bombs run — the capped instance, the ones discarded but not yet collected (V8 frees an instance's
 * memory when it collects its objects: measured up to 3.9× memory_mb after four bombs in a row in
 * worker isolation, 2× metered; scripts/bench/limits.ts), and slack.
 */
const RSS_MULTIPLE = 6;

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: memory_mb caps the component, not each core module`, () => {
    const transports: ComponentTransport[] = [];
    let tables: ComponentTransport;
    let memories: ComponentTransport;
    beforeAll(async () => {
      const open = async (guest: string): Promise<ComponentTransport> => {
        const t = componentTransport({ path: await hostileGuest(guest), cache_dir: TEST_CACHE_DIR, isolation, memory_mb: MEMORY_MB, timeout_ms: 5000, pool_size: 1 });
        transports.push(t);
        await t.load();
        return t;
      };
      tables = await open('table-bomb');
      memories = await open('memory-bomb-16');
    });
    afterAll(async () => {
      await Promise.all(transports.map((t) => t.close()));
    });

    it(`32 funcref tables grown by 10 million elements each: memory_limit, the host alive, RSS under ${RSS_MULTIPLE}× memory_mb`, async () => {
      await firstCall(tables);
      const before = process.memoryUsage().rss;
      let peak = before;
      for (let i = 0; i < 4; i++) {
        expect((await timed(tables, 'run')).result).toMatchObject({ ok: false, failure: { code: 'memory_limit' } });
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      expect(peak - before).toBeLessThan(RSS_MULTIPLE * MEMORY_MB * 1024 * 1024);
      expect((await timed(tables, 'ok')).result).toEqual({ ok: true, response: { decision: 'allow' } });
    });

    it(`16 core modules growing 60 MiB each (960 MiB): the second is refused — memory_limit, RSS under ${RSS_MULTIPLE}× memory_mb`, async () => {
      await firstCall(memories);
      const before = process.memoryUsage().rss;
      let peak = before;
      for (let i = 0; i < 4; i++) {
        expect((await timed(memories, 'run')).result).toMatchObject({ ok: false, failure: { code: 'memory_limit' } });
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      expect(peak - before).toBeLessThan(RSS_MULTIPLE * MEMORY_MB * 1024 * 1024);
      expect((await timed(memories, 'ok')).result).toEqual({ ok: true, response: { decision: 'allow' } });
    });

    it('a component whose core modules start over the cap together does not load', async () => {
      // 16 instances of a 1-page module fit; the same component under a 1 MiB cap cannot instantiate.
      const t = componentTransport({ path: await hostileGuest('memory-bomb-16'), cache_dir: TEST_CACHE_DIR, isolation, memory_mb: 1 });
      transports.push(t);
      await expect(t.load()).rejects.toMatchObject({ code: 'load_failed' });
    });
  });
}
