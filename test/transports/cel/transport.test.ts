/**
 * A CEL hook through the real runner: ordered rules, the first true `when` decides, no match allows;
 * a rule that fails on a call fails the hook (under its on_failure), never an allow; rules are
 * compiled at load, a bad one refused before any call with the rule and the column; `explain` says
 * which rule decided.
 */
import { describe, expect, it } from 'vitest';
import { celTransport, HookRunner, isHookError, isPolicyError, type HookRequest } from '../../../host/index.js';

const base = { workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'c1' } as const;
const pre = (tool_name: string, input: unknown) => ({ ...base, tool_name, input: JSON.stringify(input) });
const rules = [
  { when: "tool_name == 'shell' && input.command.matches('rm\\\\s+-rf\\\\s+/')", decision: 'deny' as const, reason: 'no rm -rf /' },
  { when: "tool_name == 'shell' && input.command.startsWith('ls')", decision: 'allow' as const, reason: 'listing is fine' },
  { when: "tool_name == 'shell' && input.command.contains('sudo')", decision: 'deny' as const, reason: 'no sudo' },
];

describe('CEL hook', () => {
  it('the first rule whose when is true decides; no match is allow', async () => {
    const runner = new HookRunner([{ name: 'cel', event: 'pre_tool_use', transport: celTransport({ rules, event: 'pre_tool_use' }) }]);
    expect(await runner.pre(pre('shell', { command: 'rm -rf /' }))).toMatchObject({ decision: 'deny', reason: 'no rm -rf /' });
    // Rule 1 allows before rule 2 could deny.
    expect(await runner.pre(pre('shell', { command: 'ls; sudo reboot' }))).toMatchObject({ decision: 'allow', modified: false });
    expect(await runner.pre(pre('shell', { command: 'sudo reboot' }))).toMatchObject({ decision: 'deny', reason: 'no sudo' });
    const unmatched = await runner.pre(pre('read_file', { path: 'README.md' }));
    expect(unmatched).toMatchObject({ decision: 'allow' });
    expect(unmatched.trail).toEqual([{ hook: 'cel', decision: 'allow', ms: expect.any(Number) }]);
  });

  it('a rule that fails on a call fails the hook: policy_error, fail closed by default, skipped under on_failure allow', async () => {
    const failing = [{ when: 'input.command.size() > 3', decision: 'deny' as const, reason: 'long' }];
    const closed = new HookRunner([{ name: 'cel', event: 'pre_tool_use', transport: celTransport({ rules: failing }) }]);
    const outcome = await closed.pre(pre('read_file', { path: 'x' }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail[0]?.failure).toEqual({ code: 'policy_error', message: 'cel[0].when, column 7: No such key: command' });
    const open = new HookRunner([{ name: 'cel', event: 'pre_tool_use', on_failure: 'allow', transport: celTransport({ rules: failing }) }]);
    expect(await open.pre(pre('read_file', { path: 'x' }))).toMatchObject({ decision: 'allow', trail: [{ failure: { code: 'policy_error' }, policy: 'allow' }] });
  });

  it('sees the call after it: output and is_error', async () => {
    const transport = celTransport({ event: 'post_tool_use', rules: [{ when: "is_error && output.contains('password')", decision: 'deny', reason: 'a password in an error' }] });
    const runner = new HookRunner([{ name: 'cel', event: 'post_tool_use', transport }]);
    expect(await runner.post({ ...base, tool_name: 'shell', input: '{}', output: 'bad password: hunter2', is_error: true })).toMatchObject({ decision: 'deny', output: 'a password in an error', is_error: true });
    expect(await runner.post({ ...base, tool_name: 'shell', input: '{}', output: 'bad password: hunter2', is_error: false })).toMatchObject({ decision: 'allow', replaced: false });
  });

  it('refuses bad rules at load, before any call, naming the rule and the column', async () => {
    const transport = celTransport({ event: 'pre_tool_use', rules: [...rules.slice(0, 1), { when: "tool_name == 'shell' && output == 1", decision: 'deny', reason: 'x' }] });
    const error = await transport.load().then(() => undefined, (e: unknown) => e);
    expect(isHookError(error) && error.code).toBe('load_failed');
    const cause = (error as Error).cause;
    expect(isPolicyError(cause) && cause.problem).toBe('absent_field');
    expect((error as Error).message).toBe('cel[1].when, column 25: output does not exist before the call (this hook runs at pre_tool_use)');
    // A call to a hook that does not load fails load_failed, never runs.
    const runner = new HookRunner([{ name: 'cel', event: 'pre_tool_use', transport }]);
    expect((await runner.pre(pre('shell', { command: 'ls' }))).trail[0]?.failure?.code).toBe('load_failed');
  });

  it('refuses rules no hook could run with at construction (a deny without a reason, no rules)', () => {
    expect(() => celTransport({ rules: [{ when: 'true', decision: 'deny' }] })).toThrow(/a deny rule needs a reason/);
    expect(() => celTransport({ rules: [] })).toThrow(/rules/);
    expect(() => celTransport({ rules, cost_limit: 0 })).toThrow(/cost_limit/);
  });

  it('explain names the rules tried and the one that decided', async () => {
    const transport = celTransport({ rules, event: 'pre_tool_use' });
    const request: HookRequest = { hook_schema: 1, event: 'pre_tool_use', ...base, tool_name: 'shell', input: { command: 'sudo ls /' } };
    const explanation = await transport.explain(request);
    expect(explanation.summary).toBe('cel[2] matched: deny (no sudo)');
    expect(explanation.items.map((i) => [i.id, i.status])).toEqual([['cel[0]', 'not_matched'], ['cel[1]', 'not_matched'], ['cel[2]', 'matched']]);
  });
});
