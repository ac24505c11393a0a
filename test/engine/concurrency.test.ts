import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

describe('component concurrency: overlapping calls all get their own answer', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  it('50 concurrent calls each get the answer for their own input', async () => {
    const transport = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'modify-wrap.wasm'), cache_dir: TEST_CACHE_DIR });
    transports.push(transport);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => transport.invoke(preRequest({ n: i }), CONTEXT)));
    results.forEach((result, i) => {
      expect(result).toEqual({ ok: true, response: { decision: 'modify', input: { wrapped: { n: i } }, reason: 'wrapped input' } });
    });
  });

  it('worker isolation: a hanging call does not hold up the others', async () => {
    const transport = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, timeout_ms: 2000, isolation: 'worker' });
    transports.push(transport);
    await transport.load();
    const hang = transport.invoke(preRequest({}, 'hang'), CONTEXT);
    const started = performance.now();
    const quick = await Promise.all(Array.from({ length: 5 }, () => transport.invoke(preRequest(), CONTEXT)));
    // The quick calls ran on the second worker, well before the hanging call's deadline.
    expect(performance.now() - started).toBeLessThan(2000);
    for (const result of quick) expect(result).toMatchObject({ ok: true, response: { decision: 'modify' } });
    expect(await hang).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  });
});
