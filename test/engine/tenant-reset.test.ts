/**
 * Issue 20, item 2: after a state reset a call sees exactly what it would see in a just-instantiated
 * instance — observed from inside the guest, not by looking at the host. The guest (observer.wat)
 * reports the handle numbers a new pollable and a new stdout stream get, its memory size and a memory
 * cell, a global, its table's size and element, how many reports it has made, and whether the host's
 * random value and clock moved on since its last report. Tenant A first changes that state by amounts
 * taken from its input (keeps N stdout streams, opens and drops N pollables in either order, grows
 * memory or its table, writes a value, leaks pollables); tenant B's report must then be the report of a
 * fresh instance. Random sequences of A's actions (fast-check), both isolations, `per_tenant` and
 * `per_call`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookRequest, InvokeResult } from '../../host/index.js';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import type { StatePolicy } from '../../host/transports/component/options.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT } from '../transports/component/requests.js';

function call(tenant: string, tool: string): HookRequest {
  return { hook_schema: 1, event: 'pre_tool_use', workspace: `/ws/${tenant}`, agent_id: tenant, tool_call_id: 'c', tool_name: tool, input: {} };
}

function report(result: InvokeResult): string {
  if (!result.ok || result.response.decision !== 'deny') throw new Error(`not a report: ${JSON.stringify(result)}`);
  return result.response.reason;
}

/** A's actions: a letter and an amount (see observer.wat). */
const action = fc.oneof(
  fc.tuple(fc.constant('k'), fc.integer({ min: 1, max: 60 })),
  fc.tuple(fc.constantFrom('d', 'D'), fc.integer({ min: 1, max: 200 })),
  fc.tuple(fc.constant('g'), fc.integer({ min: 1, max: 8 })),
  fc.tuple(fc.constant('t'), fc.integer({ min: 1, max: 1000 })),
  fc.tuple(fc.constant('w'), fc.integer({ min: 1, max: 1_000_000 })),
  fc.tuple(fc.constant('p'), fc.integer({ min: 1, max: 50 })),
);

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  for (const state of ['per_tenant', 'per_call'] as const satisfies readonly StatePolicy[]) {
    describe(`${isolation} isolation, state ${state}: after a reset a call sees what a fresh instance shows`, () => {
      let t: ComponentTransport;
      let fresh: string;
      beforeAll(async () => {
        t = componentTransport({ path: await hostileGuest('observer'), cache_dir: TEST_CACHE_DIR, isolation, state, pool_size: 1 });
        await t.load();
        fresh = report(await t.invoke(call('b', 'o'), CONTEXT));
      });
      afterAll(async () => {
        await t.close();
      });

      it('a fresh instance reports new handles, an untouched memory, table and global, and a moving clock and random', () => {
        expect(fresh).toBe('h1,s1,m1,c0,g0,t1,e0,n1,r1,k1');
      });

      it('whatever tenant a did, and with what amounts, tenant b then sees exactly the fresh report', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 4 }), async (actions) => {
            for (const [letter, amount] of actions) {
              const done = await t.invoke(call('a', `${letter}${amount}`), CONTEXT);
              expect(done).toEqual({ ok: true, response: { decision: 'allow' } });
            }
            expect(report(await t.invoke(call('b', 'o'), CONTEXT))).toBe(fresh);
          }),
          { numRuns: isolation === 'metered' ? 60 : 30 },
        );
      });

      it('the handle channel of the issue: b\'s next handle numbers do not move with how many a kept or opened', async () => {
        for (const n of [1, 7, 33]) {
          await t.invoke(call('a', `k${n}`), CONTEXT);
          expect(report(await t.invoke(call('b', 'o'), CONTEXT))).toBe(fresh);
          await t.invoke(call('a', `D${n}`), CONTEXT);
          expect(report(await t.invoke(call('b', 'o'), CONTEXT))).toBe(fresh);
        }
      });
    });
  }
}
