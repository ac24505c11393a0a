/**
 * A hook's `when` (CEL, or any CallFilter): asked at the hook's turn on the request it would see — so
 * an earlier rewrite cannot slip past it —, false skips the hook (not in the trail), and a filter
 * that cannot tell fails the hook under its on_failure, never a silent skip. The same in shadow mode.
 */
import { describe, expect, it } from 'vitest';
import { celFilter, HookRunner, interceptorTransport, isPolicyError, type CallFilter } from '../../host/index.js';

const base = { workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'c1', tool_name: 'shell' } as const;
const deny = interceptorTransport(() => ({ decision: 'deny', reason: 'denied' }));

describe('when', () => {
  it('runs the hook only when the expression is true; a skipped hook is not in the trail', async () => {
    const when = await celFilter("input.command.contains('--force')", { event: 'pre_tool_use' });
    const runner = new HookRunner([{ name: 'guard', event: 'pre_tool_use', when, transport: deny }]);
    expect(await runner.pre({ ...base, input: '{"command":"git push"}' })).toMatchObject({ decision: 'allow', trail: [] });
    expect(await runner.pre({ ...base, input: '{"command":"git push --force"}' })).toMatchObject({ decision: 'deny', reason: 'denied' });
  });

  it('sees the input as rewritten by an earlier hook', async () => {
    const rewrite = interceptorTransport(() => ({ decision: 'modify', input: { command: 'git push --force' } }));
    const when = await celFilter("input.command.contains('--force')", { event: 'pre_tool_use' });
    const runner = new HookRunner([
      { name: 'rewrite', event: 'pre_tool_use', transport: rewrite },
      { name: 'guard', event: 'pre_tool_use', when, transport: deny },
    ]);
    expect(await runner.pre({ ...base, input: '{"command":"git push"}' })).toMatchObject({ decision: 'deny', reason: 'denied' });
  });

  it('a when that fails on the call fails the hook (policy_error) under its on_failure', async () => {
    const when = await celFilter("input.command.contains('x')", { event: 'pre_tool_use' });
    const allow = interceptorTransport(() => ({ decision: 'allow' }));
    const closed = new HookRunner([{ name: 'h', event: 'pre_tool_use', when, transport: allow }]);
    const outcome = await closed.pre({ ...base, input: '"raw text"' });
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail).toMatchObject([{ hook: 'h', decision: 'deny', failure: { code: 'policy_error' }, policy: 'deny' }]);
    const open = new HookRunner([{ name: 'h', event: 'pre_tool_use', on_failure: 'allow', when, transport: deny }]);
    expect(await open.pre({ ...base, input: '"raw text"' })).toMatchObject({ decision: 'allow', trail: [{ failure: { code: 'policy_error' }, policy: 'allow' }] });
  });

  it('a shadow hook with a when: skipped when false, recorded (never denying) when it fails', async () => {
    const when = await celFilter("input.command.contains('x')", { event: 'pre_tool_use' });
    const runner = new HookRunner([{ name: 's', event: 'pre_tool_use', mode: 'shadow', when, transport: deny }]);
    expect(await runner.pre({ ...base, input: '{"command":"ls"}' }, { wait_for_shadows: true })).toMatchObject({ decision: 'allow', trail: [] });
    expect(await runner.pre({ ...base, input: '{"command":"x"}' }, { wait_for_shadows: true })).toMatchObject({ decision: 'allow', trail: [{ hook: 's', decision: 'deny', shadow: true }] });
    expect(await runner.pre({ ...base, input: '"raw"' }, { wait_for_shadows: true })).toMatchObject({ decision: 'allow', trail: [{ hook: 's', failure: { code: 'policy_error' }, shadow: true }] });
  });

  it('a filter that throws or answers nonsense fails its hook internal_error (a bug, still closed)', async () => {
    const throwing: CallFilter = { source: 'boom', test: () => { throw new Error('boom'); } };
    const nonsense = { source: 'maybe', test: () => 'maybe' } as unknown as CallFilter;
    for (const when of [throwing, nonsense]) {
      const runner = new HookRunner([{ name: 'h', event: 'pre_tool_use', when, transport: deny }]);
      expect(await runner.pre({ ...base, input: '{}' })).toMatchObject({ decision: 'deny', trail: [{ failure: { code: 'internal_error' } }] });
    }
  });

  it('refuses a when that is not a CallFilter, and a CEL when that does not compile, naming it', async () => {
    expect(() => new HookRunner([{ name: 'h', event: 'pre_tool_use', when: 'true' as unknown as CallFilter, transport: deny }])).toThrow(/when must be a CallFilter/);
    const error = await celFilter('input.command ==', { event: 'pre_tool_use' }).then(() => undefined, (e: unknown) => e);
    expect(isPolicyError(error) && error.problem).toBe('syntax');
    expect((error as Error).message).toMatch(/^when, column 17: /);
  });
});
