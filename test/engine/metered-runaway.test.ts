import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const TIMEOUT_MS = 300;
/** Generous for a shared machine (the runaway acceptance tests hold every kind to deadline + 100 ms). */
const BOUND_MS = TIMEOUT_MS + 300;

describe('metered isolation: a guest that never returns is stopped at its deadline', () => {
  const transports: ComponentTransport[] = [];
  let counter: ComponentTransport;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    counter = open();
    await counter.load();
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });
  function open(options: { fuel?: number } = {}): ComponentTransport {
    const t = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, timeout_ms: TIMEOUT_MS, isolation: 'metered', ...options });
    transports.push(t);
    return t;
  }

  it('an infinite loop fails timeout at its deadline, and the hook works again on a fresh instance', async () => {
    expect(await counter.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    const started = performance.now();
    const result = await counter.invoke(preRequest({}, 'hang'), CONTEXT);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    if (!result.ok) expect(result.failure.message).toContain('timeout_ms');
    // The instance that ran out was discarded: the count starts again.
    expect(await counter.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 1 } } });
    expect(await counter.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 2 } } });
  });

  it('an explicit fuel stops it sooner, and leaves enough for an ordinary call', async () => {
    const small = open({ fuel: 1_000_000 });
    expect(await small.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    expect(await small.invoke(preRequest({}, 'hang'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(await small.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
  });

  it('calls that overlap a runaway take their turn on the one instance, and all get an answer', async () => {
    const t = open();
    await t.load();
    const [hang, ...quick] = await Promise.all([
      t.invoke(preRequest({}, 'hang'), CONTEXT),
      ...Array.from({ length: 3 }, () => t.invoke(preRequest(), CONTEXT)),
    ]);
    expect(hang).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    // After the runaway, on a fresh instance, one after the other.
    expect(quick.map((r) => (r.ok && r.response.decision === 'modify' ? r.response.input : r))).toEqual([{ calls: 1 }, { calls: 2 }, { calls: 3 }]);
  });

  it('a call aborted before it starts does not run', async () => {
    const t = open();
    expect(await t.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    const controller = new AbortController();
    controller.abort();
    expect(await t.invoke(preRequest(), { hook: 'h', signal: controller.signal })).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(await t.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 2 } } });
  });
});
