import { describe, expect, it } from 'vitest';
import { componentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { MARGIN_MS, timed } from './runaways.js';

/** The first instantiation, at load, may take max(timeout_ms, 5 s) (transport.ts). */
const LOAD_INSTANTIATION_MS = 5_000;

describe('a start function that never returns', () => {
  it(`fails the load (load_failed) after max(timeout_ms, ${LOAD_INSTANTIATION_MS} ms) in both isolations, and no later call waits`, async () => {
    const path = await hostileGuest('start-loop');
    // One isolation after the other: a metered load burns this thread for the whole load deadline, and
    // a worker's load needs this thread to hear back from its worker — at once, each would measure both.
    const results = [];
    for (const isolation of ['metered', 'worker'] as const) {
      const t = componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation, timeout_ms: 100 });
      const started = performance.now();
      const load = await t.load().then(
        () => undefined,
        (error: unknown) => error,
      );
      const elapsed = performance.now() - started;
      const call = await timed(t, 'ok');
      await t.close();
      results.push({ isolation, load, elapsed, call });
    }
    for (const { isolation, load, elapsed, call } of results) {
      expect(load).toMatchObject({ code: 'load_failed' });
      expect(elapsed).toBeGreaterThanOrEqual(LOAD_INSTANTIATION_MS - 50);
      // A worker also boots and compiles the component: a generous margin.
      expect(elapsed).toBeLessThan(LOAD_INSTANTIATION_MS + (isolation === 'worker' ? 4000 : 2000));
      expect(call.result).toMatchObject({ ok: false, failure: { code: 'load_failed' } });
      expect(call.ms).toBeLessThan(MARGIN_MS);
    }
  }, 40_000);
});
