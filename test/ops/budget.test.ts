import { performance } from 'node:perf_hooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  FailureCode,
  HookRunner,
  componentTransport,
  createRunner,
  interceptorTransport,
  parseConfig,
  subprocessTransport,
  type HookDefinition,
} from '../../host/index.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { answerBody, ensureOpsGuests, preCall, shHook, watBehaviour } from './helpers.js';

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function runner(hooks: HookDefinition[], budget?: number): HookRunner {
  const r = new HookRunner(hooks, budget === undefined ? {} : { budget_ms: { pre_tool_use: budget } });
  runners.push(r);
  return r;
}

beforeAll(ensureOpsGuests, 300_000);

describe('chain budget', () => {
  it('budget_exhausted is a code of the closed set', () => {
    expect(FailureCode.options).toContain('budget_exhausted');
  });

  it('stops a subprocess hook at what is left of the budget, not at its own (much longer) timeout', async () => {
    const dir = await tempDir();
    const slow = await shHook(dir, 'slow.sh', 'cat >/dev/null\nsleep 30\necho \'{"decision":"allow"}\'');
    const r = runner([{ name: 'slow', event: 'pre_tool_use', transport: subprocessTransport({ command: [slow], timeout_ms: 60_000 }) }], 300);
    const started = performance.now();
    const outcome = await r.pre(preCall('c1', { command: 'ls' }));
    const elapsed = performance.now() - started;
    expect(outcome.decision).toBe('deny');
    const [entry] = outcome.trail;
    expect(entry?.failure?.code).toBe('timeout');
    expect(entry?.budget?.budget_ms).toBe(300);
    expect(entry?.budget?.left_ms).toBeGreaterThan(0);
    // A generous bound: the hook's own timeout (60 s) and its sleep (30 s) are far beyond it.
    expect(elapsed).toBeLessThan(10_000);
  });

  it('a hook whose turn comes after the budget is spent fails budget_exhausted, under its own on_failure', async () => {
    const dir = await tempDir();
    const slow = await shHook(dir, 'slow.sh', 'cat >/dev/null\nsleep 30');
    const ran = `${dir}/ran`;
    const marker = await shHook(dir, 'marker.sh', `cat >/dev/null\ntouch ${ran}\necho '{"decision":"allow"}'`);
    const hooks: HookDefinition[] = [
      { name: 'slow', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: [slow] }) },
      { name: 'skipped', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: [marker] }) },
      { name: 'closed', event: 'pre_tool_use', transport: subprocessTransport({ command: [marker] }) },
    ];
    const outcome = await runner(hooks, 200).pre(preCall('c1', { command: 'ls' }));
    expect(outcome.trail.map((e) => [e.hook, e.failure?.code, e.decision, e.policy])).toEqual([
      ['slow', 'timeout', 'allow', 'allow'],
      ['skipped', 'budget_exhausted', 'allow', 'allow'],
      ['closed', 'budget_exhausted', 'deny', 'deny'],
    ]);
    // Neither later hook was started.
    await expect(import('node:fs/promises').then((fs) => fs.stat(ran))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(outcome.decision).toBe('deny');
    if (outcome.decision === 'deny') expect(outcome.reason).toContain('budget_exhausted');
    for (const entry of outcome.trail) expect(entry.budget?.budget_ms).toBe(200);
    expect(outcome.trail[2]?.budget?.left_ms).toBeLessThanOrEqual(0);
  });

  it('stops a component in worker isolation at the budget (its worker is terminated)', async () => {
    const transport = componentTransport({ path: watBehaviour('hang'), isolation: 'worker', timeout_ms: 60_000, cache_dir: TEST_CACHE_DIR });
    await transport.load();
    const r = runner([{ name: 'hang', event: 'pre_tool_use', transport }], 300);
    const started = performance.now();
    const outcome = await r.pre(preCall('c1', { command: 'ls' }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcome.trail[0]?.failure?.code).toBe('timeout');
    // The transport is still usable: the next call gets a fresh worker.
    const again = await r.pre(preCall('c2', { command: 'ls' }));
    expect(again.trail[0]?.failure?.code).toBe('timeout');
  });

  it('gives an interceptor min(its timeout, what is left)', async () => {
    const never = interceptorTransport(() => new Promise(() => {}), { timeout_ms: 60_000 });
    const started = performance.now();
    const outcome = await runner([{ name: 'never', event: 'pre_tool_use', transport: never }], 100).pre(preCall('c1', 'x'));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcome.trail[0]?.failure?.code).toBe('timeout');
  });

  it('a component in metered isolation answers within the budget; the trail shows the budget', async () => {
    const transport = componentTransport({ path: watBehaviour('allow'), cache_dir: TEST_CACHE_DIR });
    await transport.load();
    const outcome = await runner([{ name: 'allow', event: 'pre_tool_use', transport }], 5000).pre(preCall('c1', 'x'));
    expect(outcome.decision).toBe('allow');
    expect(outcome.trail[0]).toMatchObject({ hook: 'allow', decision: 'allow', budget: { budget_ms: 5000 } });
  });

  it('a call can carry its own budget; without any, the trail has no budget', async () => {
    const dir = await tempDir();
    const allow = await shHook(dir, 'allow.sh', answerBody({ decision: 'allow' }));
    const r = runner([{ name: 'a', event: 'pre_tool_use', transport: subprocessTransport({ command: [allow] }) }]);
    const plain = await r.pre(preCall('c1', 'x'));
    expect(plain.trail[0]?.budget).toBeUndefined();
    const budgeted = await r.pre(preCall('c2', 'x'), { budget_ms: 60_000 });
    expect(budgeted.trail[0]?.budget?.budget_ms).toBe(60_000);
  });

  it('refuses a budget that is not a positive number of ms', () => {
    expect(() => new HookRunner([], { budget_ms: { pre_tool_use: 0 } })).toThrow(expect.objectContaining({ code: 'invalid_hooks' }));
    expect(() => new HookRunner([], { budget_ms: { pre_tool_use: -5 } })).toThrow(expect.objectContaining({ code: 'invalid_hooks' }));
  });

  it('comes from the config: budget_ms per event, checked by the schema', async () => {
    const dir = await tempDir();
    const slow = await shHook(dir, 'slow.sh', 'cat >/dev/null\nsleep 30');
    const config = parseConfig(
      { hook_schema: 1, budget_ms: { pre_tool_use: 250 }, hooks: [{ name: 'slow', event: 'pre_tool_use', command: [slow], timeout_ms: 60_000 }] },
      `${dir}/hooks.json`,
    );
    const r = await createRunner(config);
    runners.push(r);
    const outcome = await r.pre(preCall('c1', 'x'));
    expect(outcome.trail[0]).toMatchObject({ failure: { code: 'timeout' }, budget: { budget_ms: 250 } });

    for (const [budget, path] of [
      [{ pre_tool_use: 0 }, 'budget_ms.pre_tool_use'],
      [{ pre_tool: 10 }, 'budget_ms.pre_tool'],
      [{ post_tool_use: 1.5 }, 'budget_ms.post_tool_use'],
    ] as const) {
      let error: unknown;
      try {
        parseConfig({ hook_schema: 1, budget_ms: budget, hooks: [] }, 'hooks.json');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.map((i) => i.path)).toContain(path);
    }
  });
});
