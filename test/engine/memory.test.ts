import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const MEMORY_MB = 32;
const BOMBS = 16;

describe('component memory cap: exhaustion is a failure, the host stays bounded', () => {
  let bomb: ComponentTransport;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    bomb = componentTransport({ path: watGuest('memory-bomb'), cache_dir: TEST_CACHE_DIR, memory_mb: MEMORY_MB });
    await bomb.load();
  });
  afterAll(async () => {
    await bomb.close();
  });

  it(`a guest growing memory without end fails memory_limit, ${BOMBS} times over, with host RSS bounded`, async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    for (let i = 0; i < BOMBS; i++) {
      const result = await bomb.invoke(preRequest(), CONTEXT);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      // The contract allows memory_limit or trap; this guest traps right at its cap, so it is memory_limit.
      expect(result.failure.code).toBe('memory_limit');
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    // The hook is still usable (a fresh instance each time) and the host is alive to say so.
    expect(await bomb.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'memory_limit' } });
    // The bomb writes every page it gets, so what it grows is resident. Uncapped, one bomb alone would
    // take 4 GiB; capped, each instance holds at most MEMORY_MB, and discarded instances are garbage
    // (16 bombs kept alive would be 16 caps): allow a few caps' worth plus slack for the runtime.
    expect(peak - before).toBeLessThan(8 * MEMORY_MB * 1024 * 1024);
  });
});
