import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../host/index.js';
import { COMPONENT_DEFAULTS, componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

/** The count a counter guest answered with (each instance counts its own calls). */
function calls(result: InvokeResult): number {
  if (!result.ok || result.response.decision !== 'modify') throw new Error(`unexpected: ${JSON.stringify(result)}`);
  return (result.response.input as { calls: number }).calls;
}

describe('instances per hook: one in-thread instance when metered, a pool of pool_size workers otherwise', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });
  function open(options: { isolation: 'metered' | 'worker'; pool_size?: number; timeout_ms?: number }): ComponentTransport {
    const t = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, ...options });
    transports.push(t);
    return t;
  }

  it('metered is the default isolation, with one instance: overlapping calls take turns on it (pool_size has nothing to add)', async () => {
    expect(COMPONENT_DEFAULTS.isolation).toBe('metered');
    const t = open({ isolation: 'metered', pool_size: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, () => t.invoke(preRequest(), CONTEXT)));
    expect(results.map(calls)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('worker isolation with pool_size 1: one worker, so overlapping calls queue behind it', async () => {
    const t = open({ isolation: 'worker', pool_size: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, () => t.invoke(preRequest(), CONTEXT)));
    expect(results.map(calls).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('worker isolation with pool_size 3: two runaway calls do not hold up a third caller', async () => {
    const t = open({ isolation: 'worker', pool_size: 3, timeout_ms: 2000 });
    await t.load();
    // Overlapping calls start all three workers (booting one while two runaways spin on a 2-core
    // machine is what would take time, not the pool).
    await Promise.all(Array.from({ length: 6 }, () => t.invoke(preRequest(), CONTEXT)));
    const hangs = [t.invoke(preRequest({}, 'hang'), CONTEXT), t.invoke(preRequest({}, 'hang'), CONTEXT)];
    const started = performance.now();
    const quick = await t.invoke(preRequest(), CONTEXT);
    // Answered by the third worker, before the runaways' deadline.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(quick).toMatchObject({ ok: true, response: { decision: 'modify' } });
    for (const hang of await Promise.all(hangs)) expect(hang).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  });

  it('refuses a pool_size that is not a positive integer', () => {
    expect(() => componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'allow.wasm'), pool_size: 0 })).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });
});
