/**
 * Issue 24, item 5: a hop that finds its worker awake. A worker polls for its next job for `spin_us`
 * after a reply; a caller that finds it polling polls for the reply itself (`caller_spin_us`, never
 * past the call's deadline) and answers without a promise. Polls are set long here so that the paths
 * are taken whatever the load: a call to an awake worker is answered synchronously, with the same
 * answers and state as the awaited path; a call to a sleeping worker is awaited (the caller never
 * polls for a worker that must first be woken); a runaway still ends `timeout` at its deadline — the
 * caller's poll stops there — and the worker is replaced (its state gone with it). A timed file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, componentWorkers, type ComponentTransport, type ComponentWorkers } from '../../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../../helpers/guests.js';
import { CONTEXT, preRequest } from './requests.js';

const TIMEOUT_MS = 300;
/** Generous: the machine is shared; what matters is that the loop is stopped near the deadline. */
const MARGIN_MS = 700;
/** Longer than any call here: an awake worker stays awake between the calls of a test. */
const LONG_POLL_US = 5_000_000;

let awake: ComponentWorkers;
let asleep: ComponentWorkers;
let polled: ComponentTransport;
let awaited: ComponentTransport;

beforeAll(async () => {
  await ensureWatGuestsBuilt();
  awake = componentWorkers({ workers: 1, spin_us: LONG_POLL_US, caller_spin_us: LONG_POLL_US });
  asleep = componentWorkers({ workers: 1, spin_us: 0, caller_spin_us: LONG_POLL_US });
  polled = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, timeout_ms: TIMEOUT_MS, isolation: 'worker', workers: awake });
  awaited = componentTransport({ path: watGuest('counter'), cache_dir: TEST_CACHE_DIR, timeout_ms: TIMEOUT_MS, isolation: 'worker', workers: asleep });
  await Promise.all([polled.load(), awaited.load()]);
});

afterAll(async () => {
  await Promise.all([polled.close(), awaited.close(), awake.close(), asleep.close()]);
});

describe('the caller polls for a reply only from an awake worker', () => {
  it('answers a call to an awake worker without a promise, as the awaited path answers it', async () => {
    // The first call may find the worker asleep (the file's set-up can outlast a poll on a busy
    // runner): awaited on both paths, it leaves the polled worker awake for the calls that follow.
    expect(await polled.invoke(preRequest(), CONTEXT)).toEqual(await awaited.invoke(preRequest(), CONTEXT));
    for (let calls = 2; calls <= 6; calls++) {
      const direct = polled.invoke(preRequest(), CONTEXT);
      expect(direct).not.toBeInstanceOf(Promise);
      const later = awaited.invoke(preRequest(), CONTEXT);
      expect(later).toBeInstanceOf(Promise);
      expect(direct).toEqual({ ok: true, response: { decision: 'modify', input: { calls } } });
      expect(await later).toEqual(direct);
    }
  });

  it('stops polling at the deadline: a runaway fails timeout there, and a fresh worker serves the next call', async () => {
    expect(await polled.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true });
    const started = performance.now();
    const result = await polled.invoke(preRequest({}, 'hang'), CONTEXT);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    // The worker was stopped (or came back with its instance discarded): the count starts again.
    expect(await polled.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 1 } } });
  });

  it('a failure crosses the fast path typed as it does the awaited one', async () => {
    const direct = await polled.invoke(preRequest({}, 'trap'), CONTEXT);
    const later = await awaited.invoke(preRequest({}, 'trap'), CONTEXT);
    expect(direct).toMatchObject({ ok: false, failure: { code: 'trap' } });
    expect(later).toMatchObject({ ok: false, failure: { code: 'trap' } });
  });
});
