import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../../host/transports/component/index.js';
import { hostileGuest } from '../../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../../helpers/guests.js';
import { MARGIN_MS, expectStopped, firstCall, timed } from './runaways.js';

/** The first instantiation, at load, may take max(timeout_ms, 5 s) (transport.ts). */
const LOAD_INSTANTIATION_MS = 5_000;

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: instantiation runs under a deadline, start functions included`, () => {
    const transports: ComponentTransport[] = [];
    let dir: string;
    let startFlag: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'basis-start-'));
      startFlag = await hostileGuest('start-flag');
    });
    afterAll(async () => {
      await Promise.all(transports.map((t) => t.close()));
      await rm(dir, { recursive: true, force: true });
    });

    for (const timeoutMs of [20, 100, 1000]) {
      it(`a start function that loops when the instance is remade after a trap: that call fails timeout within the bound, and once it stops looping the next call is served (timeout_ms ${timeoutMs})`, async () => {
        const grant = join(dir, `${timeoutMs}`);
        await mkdir(grant);
        const t = componentTransport({ path: startFlag, cache_dir: TEST_CACHE_DIR, isolation, timeout_ms: timeoutMs, pool_size: 1, grants: { read_only_dirs: { '/flags': grant } } });
        transports.push(t);
        await t.load();
        await firstCall(t);
        // From now on, its start function loops.
        await writeFile(join(grant, 'loop'), '');
        expect((await timed(t, 'trap')).result).toMatchObject({ ok: false, failure: { code: 'trap' } });
        // Every call now has to make a fresh instance, whose start function runs away.
        await expectStopped(t, 'ok', timeoutMs);
        await expectStopped(t, 'ok', timeoutMs);
        await rm(join(grant, 'loop'));
        await firstCall(t);
      });
    }

  });
}

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
