import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest, type WatGuest } from '../helpers/guests.js';
import { CONTEXT, postRequest, preRequest } from '../transports/component/requests.js';

const MEMORY_MB = 32;

describe('metered isolation: traps, stack overflows and memory exhaustion, on the calling thread', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });
  function open(guest: WatGuest, options: { memory_mb?: number } = {}): ComponentTransport {
    const t = componentTransport({ path: watGuest(guest), cache_dir: TEST_CACHE_DIR, isolation: 'metered', ...options });
    transports.push(t);
    return t;
  }

  it('unreachable → trap (not a fuel timeout), and the next call runs on a fresh instance', async () => {
    const counter = open('counter');
    expect(await counter.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    expect(await counter.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 2 } } });
    expect(await counter.invoke(preRequest({}, 'trap'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
    expect(await counter.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 1 } } });
    expect(await counter.invoke(postRequest('x', false, 'trap'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
  });

  it('a stack overflow (a RangeError on this thread) → trap, the host carries on, the hook keeps answering', async () => {
    const deep = open('deep-recursion');
    for (let i = 0; i < 3; i++) expect(await deep.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
    // The thread's stack is whole again: another hook on it answers.
    expect(await open('counter').invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
  });

  it(`a memory bomb fails memory_limit at its ${MEMORY_MB} MiB cap, again and again, and the host's memory stays bounded`, async () => {
    const bomb = open('memory-bomb', { memory_mb: MEMORY_MB });
    await bomb.load();
    const before = process.memoryUsage().rss;
    let peak = before;
    for (let i = 0; i < 12; i++) {
      const result = await bomb.invoke(preRequest(), CONTEXT);
      // The contract allows memory_limit or trap; this guest traps right at its cap.
      expect(result).toMatchObject({ ok: false, failure: { code: 'memory_limit' } });
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    // Discarded instances are garbage: a few caps' worth at most, not 12.
    expect(peak - before).toBeLessThan(8 * MEMORY_MB * 1024 * 1024);
    expect(await open('counter').invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true });
  });

  it("err(...) → guest_error, and the instance is kept (an answer the guest chose)", async () => {
    const err = open('err');
    expect(await err.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'guest_error' } });
    expect(await err.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'guest_error' } });
  });
});
