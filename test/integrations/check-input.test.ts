/**
 * `RunOptions.checkInput`: the chain checks every `modify` against what the tool accepts, as it is
 * answered, so a rewrite the tool would reject is that hook's failure under its own `on_failure`.
 * The framework wrappers pass the tool's input schema through it.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport, type HookRequest, type JsonValue } from '../../host/index.js';

const call = { workspace: '/w', agent_id: 'a', tool_call_id: 'c1', tool_name: 'shell', input: '{"command":"ls"}' };
const wantsCommand = (input: JsonValue): string | undefined =>
  typeof input === 'object' && input !== null && !Array.isArray(input) && typeof input['command'] === 'string' ? undefined : 'command: expected a string';

function chain(onFailure: 'deny' | 'allow', seen: HookRequest[], rewrite: JsonValue): HookRunner {
  return new HookRunner([
    { name: 'rewrite', event: 'pre_tool_use', on_failure: onFailure, transport: interceptorTransport(() => ({ decision: 'modify', input: rewrite })) },
    { name: 'witness', event: 'pre_tool_use', transport: interceptorTransport((req) => (seen.push(req), { decision: 'allow' })) },
  ]);
}

describe('RunOptions.checkInput', () => {
  it('an accepted rewrite goes on down the chain and out', async () => {
    const seen: HookRequest[] = [];
    const checked: JsonValue[] = [];
    const outcome = await chain('deny', seen, { command: 'pwd' }).pre(call, { checkInput: (i) => (checked.push(i), wantsCommand(i)) });
    expect(outcome).toMatchObject({ decision: 'allow', input: { command: 'pwd' }, modified: true });
    expect(checked).toEqual([{ command: 'pwd' }]);
    expect(seen[0]?.input).toEqual({ command: 'pwd' });
  });

  it('a rejected rewrite fails the hook (malformed_response): fail closed by default, the next hook never runs', async () => {
    const seen: HookRequest[] = [];
    const outcome = await chain('deny', seen, { command: 42 }).pre(call, { checkInput: wantsCommand });
    expect(outcome.decision).toBe('deny');
    if (outcome.decision !== 'deny') return;
    expect(outcome.reason).toMatch(/^hook "rewrite" failed \(malformed_response: [^)]*\);/);
    expect(outcome.trail).toEqual([expect.objectContaining({ hook: 'rewrite', decision: 'deny', policy: 'deny', failure: expect.objectContaining({ code: 'malformed_response', message: expect.stringContaining('command: expected a string') }) })]);
    expect(seen).toEqual([]);
  });

  it('under on_failure allow the rewrite is dropped: the next hook sees the input as it was', async () => {
    const seen: HookRequest[] = [];
    const outcome = await chain('allow', seen, 'not an object').pre(call, { checkInput: wantsCommand });
    expect(outcome).toMatchObject({ decision: 'allow', input: { command: 'ls' }, modified: false });
    expect(seen[0]?.input).toEqual({ command: 'ls' });
  });

  it('a checker that throws fails the hook as internal_error, closed', async () => {
    const outcome = await chain('deny', [], { command: 'pwd' }).pre(call, {
      checkInput: () => {
        throw new Error('validator bug');
      },
    });
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail[0]?.failure?.code).toBe('internal_error');
  });

  it('is consulted only for modify: never for allow or deny, never after the call', async () => {
    const checked: JsonValue[] = [];
    const checkInput = (i: JsonValue) => (checked.push(i), 'rejects everything');
    const runner = new HookRunner([
      { name: 'allow', event: 'pre_tool_use', transport: interceptorTransport(() => ({ decision: 'allow' })) },
      { name: 'replace', event: 'post_tool_use', transport: interceptorTransport(() => ({ decision: 'replace', output: 'x' })) },
    ]);
    expect((await runner.pre(call, { checkInput })).decision).toBe('allow');
    expect((await runner.post({ ...call, output: 'y', is_error: false })).output).toBe('x');
    expect(checked).toEqual([]);
  });
});
