/**
 * The runaway guests every isolation must stop at its deadline (test/fixtures/hostile/*.wat: tool
 * "run" runs away, any other tool is answered at once), and the acceptance check shared by the metered
 * and worker test files: each ends as `timeout` within `timeout_ms` + {@link MARGIN_MS}, and the next
 * call is served normally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { RUNAWAYS, type Runaway } from '../../scripts/hostile/runaways.js';

export { RUNAWAYS, type Runaway };
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

/** How far past its deadline a call may end: generous for a loaded 2-core machine (the issue's bound). */
export const MARGIN_MS = 100;


/** A call: its result and how long it took. */
export async function timed(transport: ComponentTransport, tool: string): Promise<{ result: Awaited<ReturnType<ComponentTransport['invoke']>>; ms: number }> {
  const started = performance.now();
  const result = await transport.invoke(preRequest({}, tool), CONTEXT);
  return { result, ms: performance.now() - started };
}

/**
 * Run a runaway and expect `timeout` within `timeout_ms` + {@link MARGIN_MS}. On a machine shared by
 * many jobs the thread can be descheduled, or V8 can collect, for longer than the margin during the
 * last slice (seen: up to ~150 ms at a load average of 10 on 2 cores); such a stall is the host's, so
 * a test past the bound is run once more, with the figure of its first failure printed
 * (test/helpers/timed-retry.ts: every file using this is in the timed layer). A guest the meter does
 * not stop is past the bound every time.
 */
export async function expectStopped(transport: ComponentTransport, tool: string, timeoutMs: number): Promise<void> {
  const ran = await timed(transport, tool);
  expect(ran.result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
  expect(ran.ms, `${tool}: ended ${ran.ms.toFixed(1)} ms after it was called, timeout_ms ${timeoutMs}`).toBeLessThan(timeoutMs + MARGIN_MS);
}

/**
 * A call that must be served, allowed to miss a very short deadline a few times for reasons that are the
 * host's, not the guest's: a worker's first call runs cold code, and the call
 * after a runaway makes a fresh instance while V8 may be collecting the discarded one (a Mark-Compact
 * pause measured at 15–60 ms on a loaded 2-core machine) — either can outlast 20 ms.
 */
export async function firstCall(transport: ComponentTransport): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { result } = await timed(transport, 'ok');
    if (result.ok || attempt === 4 || result.failure.code !== 'timeout') {
      expect(result).toEqual({ ok: true, response: { decision: 'allow' } });
      return;
    }
    // Let the collector finish what it was doing before trying again.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The deadlines every runaway is run with (issue 8: 20, 100 and 1000 ms). */
const TIMEOUTS_MS = [20, 100, 1000] as const;

/**
 * For each runaway and each timeout: load, a normal call, the runaway (`timeout` within the bound),
 * and a normal call again.
 */
export function runawaySuite(isolation: ComponentIsolation): void {
  describe(`${isolation} isolation: every runaway ends as timeout within timeout_ms + ${MARGIN_MS} ms, and the next call is served`, () => {
    const transports: ComponentTransport[] = [];
    const paths = new Map<string, string>();
    beforeAll(async () => {
      for (const runaway of RUNAWAYS) paths.set(runaway.guest, await hostileGuest(runaway.guest));
    });
    afterAll(async () => {
      await Promise.all(transports.map((t) => t.close()));
    });

    for (const runaway of RUNAWAYS) {
      for (const timeoutMs of TIMEOUTS_MS) {
        it(`${runaway.what} (${runaway.guest}), timeout_ms ${timeoutMs}`, async () => {
          const path = paths.get(runaway.guest) ?? '';
          const t = componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation, timeout_ms: timeoutMs, pool_size: 1 });
          transports.push(t);
          await t.load();
          await firstCall(t);
          await expectStopped(t, 'run', timeoutMs);
          // A fresh instance, made within the next call's own deadline.
          await firstCall(t);
        });
      }
    }
  });
}
