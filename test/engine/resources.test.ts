import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { MAX_LIVE_RESOURCES } from '../../host/engine/wasi/resources.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { firstCall, timed } from './runaways.js';

/** Open file descriptors of this process (every thread's: workers included). */
function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

/**
 * The open-fd count once it is back at or under `limit`, or the lowest seen in `ms`. A worker stopped
 * at its deadline is terminated and replaced in the background: its descriptors close when the
 * thread is gone, which on a loaded machine can take longer than any fixed pause. A leak never comes
 * back down; a worker still being torn down does.
 */
async function fdsSettledTo(limit: number, ms = 10_000): Promise<number> {
  const end = Date.now() + ms;
  let lowest = openFds();
  while (lowest > limit && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    lowest = Math.min(lowest, openFds());
  }
  return lowest;
}

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: nothing a call opens outlives it`, () => {
    const transports: ComponentTransport[] = [];
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'basis-resources-'));
      await writeFile(join(dir, 'data.txt'), 'data');
    });
    afterAll(async () => {
      await Promise.all(transports.map((t) => t.close()));
      await rm(dir, { recursive: true, force: true });
    });

    it('100 calls that each leave 5 files open leave the host\'s open-fd count flat', async () => {
      const t = componentTransport({ path: await hostileGuest('fd-leak'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1, grants: { read_only_dirs: { '/data': dir } } });
      transports.push(t);
      await firstCall(t);
      // One call that leaks first: its worker and instance are up, so what follows measures leaks alone.
      expect((await timed(t, 'run')).result).toEqual({ ok: true, response: { decision: 'allow' } });
      const before = openFds();
      for (let i = 0; i < 100; i++) expect((await timed(t, 'run')).result).toEqual({ ok: true, response: { decision: 'allow' } });
      expect(openFds()).toBeLessThanOrEqual(before);
      // A guest that drops what it opens keeps its instance and its state.
      expect((await timed(t, 'keep')).result).toEqual({ ok: true, response: { decision: 'allow' } });
    });

    it('calls that leave files open and then trap, or run into their deadline, leave the open-fd count flat too', async () => {
      const t = componentTransport({ path: await hostileGuest('fd-leak'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1, timeout_ms: 100, grants: { read_only_dirs: { '/data': dir } } });
      transports.push(t);
      await firstCall(t);
      expect((await timed(t, 'trap')).result).toMatchObject({ ok: false, failure: { code: 'trap' } });
      expect((await timed(t, 'hang')).result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
      // Counted with a worker serving (the one that replaced the stopped one, when there is one: its
      // first call may miss the 100 ms deadline, as firstCall says) and the stopped one gone, as at the end.
      await firstCall(t);
      const before = await fdsSettledTo(0, 500);
      for (let i = 0; i < 20; i++) {
        expect((await timed(t, 'trap')).result).toMatchObject({ ok: false, failure: { code: 'trap' } });
        expect((await timed(t, 'hang')).result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
        // The next call's 100 ms include starting the worker that replaces the stopped one (worker
        // isolation): let that happen on a call that may retry, not on the trap that must trap.
        await firstCall(t);
      }
      await firstCall(t);
      expect(await fdsSettledTo(before)).toBeLessThanOrEqual(before);
    }, 60_000);

    it(`a call may hold at most ${MAX_LIVE_RESOURCES} resources: ten million pollables end as memory_limit, and the next call is served`, async () => {
      const t = componentTransport({ path: await hostileGuest('pollable-leak'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1, timeout_ms: 5000 });
      transports.push(t);
      await firstCall(t);
      const heap = process.memoryUsage().heapUsed;
      for (let i = 0; i < 3; i++) expect((await timed(t, 'run')).result).toMatchObject({ ok: false, failure: { code: 'memory_limit' } });
      // ~20 MB per call before the cap; now a few KB per pollable, 1024 at most, and gone with the instance.
      expect(process.memoryUsage().heapUsed - heap).toBeLessThan(32 * 1024 * 1024);
      expect((await timed(t, 'ok')).result).toEqual({ ok: true, response: { decision: 'allow' } });
    });
  });
}
