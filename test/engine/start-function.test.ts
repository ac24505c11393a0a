import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { expectStopped, firstCall, timed } from './runaways.js';

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
