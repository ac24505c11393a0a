/**
 * `runner.close()` in the middle of a chain: the hook in flight settles at once (`timeout`, its
 * policy applies), and no later hook of that chain is started — its transport is being closed.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport } from '../../host/index.js';

const call = { workspace: '/w', agent_id: 'a', tool_call_id: 'c1', tool_name: 'shell', input: { command: 'ls' } } as const;

describe('close() while a chain runs', () => {
  it('settles the running hook as timeout and starts none after it, even when its policy lets the chain go on', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let laterCalls = 0;
    const runner = new HookRunner([
      {
        name: 'slow',
        event: 'pre_tool_use',
        on_failure: 'allow',
        transport: interceptorTransport(async () => {
          started();
          await gate;
          return { decision: 'allow' };
        }),
      },
      {
        name: 'later',
        event: 'pre_tool_use',
        transport: interceptorTransport(() => {
          laterCalls += 1;
          return { decision: 'deny', reason: 'should not run' };
        }),
      },
    ]);
    const outcome = runner.pre(call);
    await running;
    await runner.close();
    const settled = await outcome;
    release();
    expect(settled.trail[0]).toMatchObject({ hook: 'slow', decision: 'allow', failure: { code: 'timeout' }, policy: 'allow' });
    expect(settled.trail[1]).toMatchObject({ hook: 'later', failure: { code: 'timeout' } });
    expect(laterCalls).toBe(0);
  });
});
