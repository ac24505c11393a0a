/**
 * The direct canonical-ABI call as the transport now makes it, against jco's glue (the fallback for
 * components shaped otherwise, `direct_call: false`): the C guard through `HookRunner.pre`, metered and
 * in worker isolation, each with the JSON floor, interleaved. One transport of each kind at a time.
 */
import { HookRunner, componentTransport, type ComponentTransport } from '../../../host/index.js';
import { jsonFloor } from '../baselines.js';
import { ANSWER, CALL, REQUEST, guestById } from '../guests.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import type { MicroPlan } from './plan.js';

async function runner(path: string, cacheDir: string, isolation: 'metered' | 'worker', direct: boolean): Promise<{ runner: HookRunner; transport: ComponentTransport }> {
  const transport = componentTransport({ path, cache_dir: cacheDir, isolation, direct_call: direct, pool_size: 1 });
  const info = await transport.load();
  if ((info.call?.path === 'direct') !== direct) throw new Error(`expected the ${direct ? 'direct' : 'glue'} path, the transport took ${JSON.stringify(info.call)}`);
  const hooks = new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport }]);
  const outcome = await hooks.pre(CALL);
  if (outcome.decision !== 'allow') throw new Error(`expected allow, got ${JSON.stringify(outcome)}`);
  return { runner: hooks, transport };
}

export async function benchCallPath(plan: MicroPlan, cacheDir: string): Promise<Block[]> {
  const guest = guestById('c');
  const floor = jsonFloor(REQUEST, ANSWER);
  const out: Block[] = [];
  for (const isolation of ['metered', 'worker'] as const) {
    const glue = await runner(guest.path, cacheDir, isolation, false);
    const direct = await runner(guest.path, cacheDir, isolation, true);
    try {
      const m = await measureInterleaved({ before: () => glue.runner.pre(CALL), after: () => direct.runner.pre(CALL), floor }, isolation === 'metered' ? plan.fast : plan.worker);
      out.push({ block: 'direct canonical-ABI call in the transport', case: `${guest.label}, ${isolation}, HookRunner.pre: jco glue → direct (floor ${m.floor.median_us} µs)`, before: m.before, after: m.after });
    } finally {
      await Promise.all([glue.transport.close(), direct.transport.close()]);
    }
  }
  return out;
}
