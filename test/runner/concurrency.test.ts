/**
 * Concurrency: overlapping calls from two tenants into one component, in both isolations, each
 * outcome carrying its own call's data; and `runner.close()` under load settling every pending call
 * within a second, whatever its hooks are doing.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport, subprocessTransport, type HookCall, type Outcome } from '../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';

beforeAll(async () => {
  await ensureWatGuestsBuilt();
});

function call(tenant: 'a' | 'b', n: number, tool = 'shell'): HookCall {
  return {
    event: 'pre_tool_use',
    workspace: `/workspace-${tenant}`,
    agent_id: `tenant-${tenant}`,
    tool_call_id: `${tenant}-${n}`,
    tool_name: tool,
    input: { tenant, n, secret: `secret-of-${tenant}-${n}` },
  };
}

describe.each(['metered', 'worker'] as const)('200 overlapping calls from two tenants into one component (%s)', (isolation) => {
  let transport: ComponentTransport;
  let runner: HookRunner;
  beforeAll(async () => {
    // probe answers modify with what it was shown, input included.
    transport = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'probe.wasm'), isolation, pool_size: 2, cache_dir: TEST_CACHE_DIR });
    await transport.load();
    runner = new HookRunner([{ name: 'probe', event: 'pre_tool_use', transport }]);
  });
  afterAll(async () => runner.close());

  it('each outcome carries its own call\'s data, never the other tenant\'s', async () => {
    const calls = Array.from({ length: 200 }, (_, i) => call(i % 2 === 0 ? 'a' : 'b', i));
    const outcomes = await Promise.all(calls.map((c) => runner.run(c)));
    outcomes.forEach((outcome, i) => {
      const own = calls[i] as HookCall;
      expect(outcome).toMatchObject({
        tool_call_id: own.tool_call_id,
        decision: 'allow',
        modified: true,
        input: { hook_schema: 1, event: 'pre_tool_use', has_output: false, has_is_error: false, input: own.input },
      });
    });
  });
});

describe('runner.close() under load', () => {
  it('settles every pending call within a second: interceptors that never answer, sleeping subprocesses, hung workers', async () => {
    const hang = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'hang.wasm'), isolation: 'worker', pool_size: 2, timeout_ms: 60_000, cache_dir: TEST_CACHE_DIR });
    const quick = componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'allow.wasm'), cache_dir: TEST_CACHE_DIR });
    await Promise.all([hang.load(), quick.load()]);
    const runner = new HookRunner([
      { name: 'never', event: 'pre_tool_use', tools: ['never'], transport: interceptorTransport(() => new Promise<never>(() => {}), { timeout_ms: 60_000 }) },
      { name: 'sleeper', event: 'pre_tool_use', tools: ['sleep'], transport: subprocessTransport({ command: ['sleep', '30'], timeout_ms: 60_000 }) },
      { name: 'hung', event: 'pre_tool_use', tools: ['hang'], transport: hang },
      { name: 'quick', event: 'pre_tool_use', tools: ['quick', 'never', 'sleep', 'hang'], on_failure: 'allow', transport: quick },
    ]);
    const tools = ['never', 'sleep', 'hang', 'quick'];
    const pending = Array.from({ length: 80 }, (_, i) => {
      const started = runner.run(call(i % 2 === 0 ? 'a' : 'b', i, tools[i % tools.length]));
      return started.then(
        (outcome) => ({ outcome, at: performance.now() }),
        (error: unknown) => ({ error, at: performance.now() }),
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // every slow hook is running by now
    const closing = performance.now();
    const closed = runner.close();
    const settled = await Promise.all(pending);
    await closed;
    for (const s of settled) {
      expect('outcome' in s).toBe(true);
      expect(s.at - closing).toBeLessThan(1000);
      const outcome = (s as { outcome: Outcome }).outcome;
      const tool = outcome.tool_call_id.split('-')[1];
      if (outcome.decision === 'deny') expect(outcome.trail.at(-1)?.failure?.code).toBe('timeout');
      else expect(Number(tool) % tools.length).toBe(3); // only the quick tool's calls could have finished
    }
    await expect(runner.run(call('a', 999))).rejects.toMatchObject({ code: 'runner_closed' });
  }, 60_000);
});
