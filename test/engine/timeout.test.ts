import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const TIMEOUT_MS = 300;
/** Generous: the machine is shared; what matters is that the loop is stopped at all, near the deadline. */
const MARGIN_MS = 700;

// Worker isolation's wall-clock deadline (metered isolation's fuel: metered-runaway.test.ts).
describe('component timeout (worker isolation): a guest that never returns is stopped at the deadline', () => {
  let transport: ComponentTransport;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    transport = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, timeout_ms: TIMEOUT_MS, isolation: 'worker' });
    await transport.load();
  });
  afterAll(async () => {
    await transport.close();
  });

  it('an infinite loop fails timeout at the deadline, and the hook works again after', async () => {
    expect(await transport.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    const started = performance.now();
    const result = await transport.invoke(preRequest({}, 'hang'), CONTEXT);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    // A fresh worker and instance: the count starts again.
    expect(await transport.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 1 } } });
    expect(await transport.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 2 } } });
  });

  it('an aborted call stops the guest and fails', async () => {
    const controller = new AbortController();
    const pending = transport.invoke(preRequest({}, 'hang'), { hook: 'h', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    expect(await pending).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
    expect(await transport.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
  });
});
