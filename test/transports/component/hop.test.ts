/**
 * Issue 24, item 5: consecutive worker-isolated hooks of a chain that share their workers run in one
 * hop — and come to exactly the outcome they come to hook by hook. The hooks are script.wat guests
 * acting on the first letter of a script in their input (or output): pass it on (modify / replace),
 * deny, err, trap, answer the wrong decision for the event, allow, or run into their deadline. Random
 * scripts, chain lengths and failure policies (fast-check): a chain of hooks sharing workers (one hop
 * per segment), the same chain with a worker pool per hook, and the same chain in metered isolation
 * give the same outcome and trail (but the `ms`). Plus: one hop per segment is what actually runs;
 * a runner closed during a segment settles at once; a shadow hook, or a hook with a `when`, splits a
 * segment. A timed file (vitest.config.ts): its hooks run into their deadlines.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, type HookDefinition, type Outcome } from '../../../host/index.js';
import { componentTransport, componentWorkers, type ComponentTransport, type ComponentWorkers } from '../../../host/transports/component/index.js';
import { hostileGuest } from '../../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../../helpers/guests.js';

const MAX_HOOKS = 5;
/** Each hook's deadline: short, since the loop action runs into it. */
const TIMEOUT_MS = 200;

let path: string;
let workers: ComponentWorkers;
const shared: ComponentTransport[] = [];
const own: ComponentTransport[] = [];
const metered: ComponentTransport[] = [];

beforeAll(async () => {
  path = await hostileGuest('script');
  workers = componentWorkers({ workers: 1 });
  for (let i = 0; i < MAX_HOOKS; i++) {
    shared.push(componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation: 'worker', workers, timeout_ms: TIMEOUT_MS }));
    own.push(componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation: 'worker', pool_size: 1, timeout_ms: TIMEOUT_MS }));
    metered.push(componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation: 'metered', timeout_ms: TIMEOUT_MS }));
  }
  await Promise.all([...shared, ...own, ...metered].map((t) => t.load()));
});

afterAll(async () => {
  await Promise.all([...shared, ...own, ...metered].map((t) => t.close()));
  await workers.close();
});

type Event = 'pre_tool_use' | 'post_tool_use';

function chain(transports: readonly ComponentTransport[], event: Event, policies: ReadonlyArray<'deny' | 'allow'>): HookRunner {
  const hooks: HookDefinition[] = policies.map((policy, i) => ({ name: `h${i}`, event, on_failure: policy, transport: transports[i] as ComponentTransport }));
  return new HookRunner(hooks);
}

function run(runner: HookRunner, event: Event, script: string): Promise<Outcome> {
  const base = { workspace: '/ws', agent_id: 'agent', tool_call_id: 'c1', tool_name: 'shell' };
  return event === 'pre_tool_use' ? runner.pre({ ...base, input: script }) : runner.post({ ...base, input: 'in', output: script, is_error: false });
}

/** The outcome without what timing decides (`ms`). */
function comparable(outcome: Outcome): unknown {
  return { ...outcome, trail: outcome.trail.map(({ ms: _ms, ...entry }) => entry) };
}

describe('hooks sharing their workers run in one hop per segment, with the outcome they have hook by hook', () => {
  it('the same outcome and trail as a pool per hook and as metered isolation (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Event>('pre_tool_use', 'post_tool_use'),
        fc.array(fc.constantFrom('deny', 'allow'), { minLength: 2, maxLength: MAX_HOOKS }),
        fc.stringMatching(/^[mmmmadetw]{0,6}$/),
        async (event, policies, script) => {
          const outcomes = await Promise.all([shared, own, metered].map((transports) => run(chain(transports, event, policies), event, script)));
          const [hop, perHook, inThread] = outcomes.map(comparable);
          expect(hop).toStrictEqual(perHook);
          expect(hop).toStrictEqual(inThread);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('a hook that runs into its deadline inside a segment is a timeout under its policy, and the chain goes on', async () => {
    for (const policies of [['allow', 'allow', 'deny'], ['deny', 'allow']] as const) {
      const [hop, perHook] = await Promise.all([shared, own].map((transports) => run(chain(transports, 'pre_tool_use', policies), 'pre_tool_use', 'mlm')));
      expect(comparable(hop as Outcome)).toStrictEqual(comparable(perHook as Outcome));
      expect((hop as Outcome).trail[1]).toMatchObject({ failure: { code: 'timeout' } });
    }
  }, 60_000);

  it('a segment is one job for the workers, whatever its length; a shadow hook splits it', async () => {
    const before = workers.pool.jobsRun;
    await run(chain(shared, 'pre_tool_use', ['deny', 'deny', 'deny', 'deny', 'deny']), 'pre_tool_use', 'mmmm');
    expect(workers.pool.jobsRun - before).toBe(1);
    const split = new HookRunner(
      shared.slice(0, 4).map((transport, i) => ({ name: `h${i}`, event: 'pre_tool_use' as const, transport, ...(i === 2 ? { mode: 'shadow' as const } : {}) })),
    );
    const middle = workers.pool.jobsRun;
    await run(split, 'pre_tool_use', 'mmm');
    await split.idle();
    // h0+h1 in one hop, the shadow h2 on its own, h3 on its own.
    expect(workers.pool.jobsRun - middle).toBe(3);
  });

  it('a hook with a `when` splits a segment: its filter is asked on this thread, at its turn, on the state it would see', async () => {
    const seen: unknown[] = [];
    const when = { source: 'input is "m" (test)', test: (request: { input: unknown }) => (seen.push(request.input), request.input === 'm') };
    const filtered = (skipAt: number) =>
      new HookRunner(shared.slice(0, 4).map((transport, i) => ({ name: `h${i}`, event: 'pre_tool_use' as const, transport, ...(i === skipAt ? { when } : {}) })));
    const before = workers.pool.jobsRun;
    // h0 rewrites "mmm" to "mm": h1's filter sees "mm" and says no — h1 does not run and is not in the trail.
    const skipped = await run(filtered(1), 'pre_tool_use', 'mmm');
    expect(seen).toStrictEqual(['mm']);
    expect(skipped.trail.map((entry) => entry.hook)).toStrictEqual(['h0', 'h2', 'h3']);
    // h0 on its own (the hook after it has a filter), h1 skipped, h2+h3 in one hop.
    expect(workers.pool.jobsRun - before).toBe(2);
    // Three rewrites before h3 leave "m": its filter says yes and it runs, on its own.
    const middle = workers.pool.jobsRun;
    const ran = await run(filtered(3), 'pre_tool_use', 'mmmm');
    expect(seen.at(-1)).toBe('m');
    expect(ran.trail.map((entry) => entry.hook)).toStrictEqual(['h0', 'h1', 'h2', 'h3']);
    expect(workers.pool.jobsRun - middle).toBe(2);
    // The same outcomes as hook by hook.
    const own4 = (skipAt: number) => new HookRunner(own.slice(0, 4).map((transport, i) => ({ name: `h${i}`, event: 'pre_tool_use' as const, transport, ...(i === skipAt ? { when } : {}) })));
    expect(comparable(skipped)).toStrictEqual(comparable(await run(own4(1), 'pre_tool_use', 'mmm')));
    expect(comparable(ran)).toStrictEqual(comparable(await run(own4(3), 'pre_tool_use', 'mmmm')));
  });

  it('a runner closed while a segment runs settles at once: the running hook fails timeout, nothing after it runs', async () => {
    const runner = chain(shared, 'pre_tool_use', ['deny', 'deny', 'deny']);
    const pending = run(runner, 'pre_tool_use', 'mll');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    await runner.close();
    const outcome = await pending;
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
    expect(outcome).toMatchObject({ decision: 'deny', trail: [{ hook: 'h0', failure: { code: 'timeout' } }] });
    // The closed runner's transports are the shared ones: make fresh ones for any later test.
  });
});
