/**
 * Block (a): the direct canonical-ABI call of `handle` against jco's glue, on the same instance and
 * the same WIT record (made once, outside the timing). With one instance of the component in the
 * process, and with three (a chain of hooks running one .wasm), calls going round the instances.
 * Run in a fresh process (micro/run.ts): instances made elsewhere in the bench would change the
 * one-instance figure.
 */
import { toWitRequest } from '../../../host/codec/wit.js';
import { guestById, REQUEST } from '../guests.js';
import { instantiateBothWays, type BothWays } from '../raw.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import type { MicroPlan } from './plan.js';

const GUESTS = ['c', 'wat', 'rust-std', 'js-quickjs', 'js-spidermonkey'];

export async function benchDirectCall(plan: MicroPlan, cacheDir: string): Promise<Block[]> {
  const record = toWitRequest(REQUEST);
  const out: Block[] = [];
  const open: BothWays[] = [];
  try {
    for (const id of GUESTS) {
      const guest = guestById(id);
      const one = await instantiateBothWays(guest.path, cacheDir);
      open.push(one);
      const direct = one.direct;
      if (direct === undefined) throw new Error(`${guest.label}: not direct-callable: ${one.whyNot}`);
      const m = await measureInterleaved({ before: () => one.glue(record), after: () => direct.call(record) }, plan.fast);
      out.push({ block: 'direct canonical-ABI call', case: `${guest.label}, 1 instance`, before: m.before, after: m.after });
    }
    // Three instances of the C guard, called in turn: jco's classes are per instantiate(), so its
    // call sites see several maps (PERF-FINDINGS: every jco call 2.8× slower).
    const c = guestById('c');
    const three = [open.find((o) => o.component.path === c.path) as BothWays, await instantiateBothWays(c.path, cacheDir), await instantiateBothWays(c.path, cacheDir)];
    open.push(...three.slice(1));
    let i = 0;
    let j = 0;
    const m = await measureInterleaved(
      {
        before: () => (three[i++ % 3] as BothWays).glue(record),
        after: () => (three[j++ % 3] as BothWays).direct?.call(record),
      },
      plan.fast,
    );
    out.push({ block: 'direct canonical-ABI call', case: `${c.label}, 3 instances of one component, called in turn`, before: m.before, after: m.after });
  } finally {
    for (const o of open) o.close();
  }
  return out;
}
