/**
 * Typed errors for every bad call and every bad hook list: `invalid_call` / `invalid_hooks` naming the
 * path, never a raw TypeError; the trail holds contract values only, whatever a transport returns.
 */
import { describe, expect, it } from 'vitest';
import {
  HookRunner,
  interceptorTransport,
  RunnerError,
  TrailEntry,
  Outcome,
  type HookCall,
  type HookDefinition,
  type Transport,
} from '../../host/index.js';

const allow = interceptorTransport(() => ({ decision: 'allow' }));
const base = { event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell' } as const;

function refusal(fn: () => unknown): RunnerError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RunnerError);
    return error as RunnerError;
  }
  throw new Error('expected a RunnerError');
}

async function refused(promise: Promise<unknown>): Promise<RunnerError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RunnerError);
  return error as RunnerError;
}

describe('bad calls are invalid_call, naming the path', () => {
  const runner = new HookRunner([{ name: 'h', event: 'pre_tool_use', transport: allow }]);
  const circular: Record<string, unknown> = { a: 1 };
  circular.me = circular;

  it.each([
    ['a BigInt', { count: 1n }, 'input.count'],
    ['a circular structure', circular, 'input.me'],
    ['a function', { f: () => 0 }, 'input.f'],
    ['undefined in an array', [1, undefined], 'input[1]'],
    ['a Date', { at: new Date() }, 'input.at'],
    ['a symbol', [Symbol('s')], 'input[0]'],
    ['NaN', { n: NaN }, 'input.n'],
    ['a Map', new Map([['a', 1]]), 'input'],
  ])('%s in the input', async (_what, input, path) => {
    const error = await refused(runner.run({ ...base, input } as unknown as HookCall));
    expect(error.code).toBe('invalid_call');
    expect(error.message).toContain(`${path}: `);
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['a string', 'call'],
    ['an array', [base]],
    ['missing fields', { event: 'pre_tool_use' }],
    ['a BigInt tool name', { ...base, tool_name: 5n, input: {} }],
    ['a getter that throws', Object.defineProperty({ ...base, input: {} }, 'tool_name', { enumerable: true, get: () => { throw new Error('boom'); } })],
    ['a Proxy whose traps throw', new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); } })],
  ])('%s as the call (run, pre and post)', async (_what, value) => {
    for (const method of ['run', 'pre', 'post'] as const) {
      const error = await refused((runner[method] as (c: unknown) => Promise<unknown>).call(runner, value));
      expect(error.code).toBe('invalid_call');
    }
  });

  it('a BigInt in a post_tool_use output names output', async () => {
    const error = await refused(runner.post({ ...base, input: {}, output: { big: [10n] }, is_error: false } as never));
    expect(error.message).toContain('output.big[0]');
  });

  it('the chain runs on a copy: mutating the call while a hook runs changes nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: unknown[] = [];
    const slow = new HookRunner([
      { name: 'slow', event: 'pre_tool_use', transport: interceptorTransport(async (req) => { seen.push(req.input); await gate; return { decision: 'allow' }; }) },
    ]);
    const input = { command: 'ls' };
    const pending = slow.run({ ...base, input });
    input.command = 'rm -rf /';
    release();
    expect(await pending).toMatchObject({ decision: 'allow', input: { command: 'ls' } });
    expect(seen).toEqual([{ command: 'ls' }]);
  });
});

describe('new HookRunner validates the hook list (invalid_hooks)', () => {
  const good: HookDefinition = { name: 'h', event: 'pre_tool_use', transport: allow };

  it.each([
    ['on_failure "ignore"', { ...good, on_failure: 'ignore' }, 'on_failure'],
    ['on_failure null', { ...good, on_failure: null }, 'on_failure'],
    ['transport {}', { ...good, transport: {} }, 'transport'],
    ['transport without kind', { ...good, transport: { invoke: () => undefined } }, 'transport'],
    ['transport with a non-function close', { ...good, transport: { kind: 'x', invoke: () => undefined, close: 1 } }, 'transport'],
    ['an unknown event', { ...good, event: 'before' }, 'event'],
    ['tools that are not strings', { ...good, tools: ['shell', 3] }, 'tools'],
    ['tools as a string', { ...good, tools: 'shell' }, 'tools'],
    ['an empty name', { ...good, name: ' ' }, 'name'],
    ['a hook that is not an object', 'guard', 'object'],
  ])('%s', (_what, hook, field) => {
    const error = refusal(() => new HookRunner([hook as HookDefinition]));
    expect(error.code).toBe('invalid_hooks');
    expect(error.message).toContain('hooks[0]');
    expect(error.message).toContain(field);
  });

  it('hooks that are not an array, and duplicate names', () => {
    expect(refusal(() => new HookRunner({} as never)).code).toBe('invalid_hooks');
    expect(refusal(() => new HookRunner([good, good])).message).toContain('hooks[1]');
  });

  it('takes a copy of the list: editing a definition afterwards does not change the chain', async () => {
    const def = { name: 'h', event: 'pre_tool_use' as const, tools: ['shell'], transport: allow };
    const runner = new HookRunner([def]);
    def.tools.push('other');
    (def as { name: string }).name = 'renamed';
    expect(runner.hooks).toEqual([{ name: 'h', event: 'pre_tool_use', tools: ['shell'], transport: allow }]);
    expect((await runner.run({ ...base, tool_name: 'other', input: {} })).trail).toEqual([]);
  });
});

describe('the trail only ever holds contract values', () => {
  function junkTransport(result: unknown): Transport {
    return { kind: 'junk', invoke: async () => result as never };
  }

  it.each([
    ['undefined', undefined],
    ['a string', 'allow'],
    ['ok: "yes"', { ok: 'yes', response: { decision: 'allow' } }],
    ['a failure with an unknown code', { ok: false, failure: { code: 'ignored', message: 'x' } }],
    ['a failure without a failure', { ok: false }],
    ['a response that is not one', { ok: true, response: { decision: 'maybe' } }],
    ['a response with a BigInt', { ok: true, response: { decision: 'modify', input: 1n } }],
    ['logs that are not strings', { ok: true, response: { decision: 'allow' }, logs: { stderr: 42, stdout: { a: 1 } } }],
    ['a throwing getter', { get ok(): never { throw new Error('x'); } }],
  ])('a transport returning %s: the outcome and its trail parse as the contract', async (_what, result) => {
    const runner = new HookRunner([{ name: 'j', event: 'pre_tool_use', on_failure: 'allow', transport: junkTransport(result) }]);
    const outcome = await runner.run({ ...base, input: {} });
    expect(Outcome.safeParse(outcome).success).toBe(true);
    for (const entry of outcome.trail) expect(TrailEntry.safeParse(entry).success).toBe(true);
    expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
  });

  it.each([
    ['answers a result whose `then` getter throws', () => ({ get then(): never { throw new Error('no'); } })],
    ['answers a thenable whose `then` throws', () => ({ then: () => { throw new Error('no'); } })],
    ['answers a promise that rejects', () => Promise.reject(new Error('no'))],
    ['answers nothing, synchronously', () => undefined],
  ])('a transport that %s fails internal_error, synchronously or not, and the chain fails closed', async (_what, invoke) => {
    const runner = new HookRunner([{ name: 't', event: 'pre_tool_use', transport: { kind: 'x', invoke: invoke as never } }]);
    const outcome = await runner.run({ ...base, input: {} });
    expect(outcome).toMatchObject({ decision: 'deny', trail: [{ failure: { code: 'internal_error' } }] });
  });

  it('a transport that throws something odd fails internal_error and the chain fails closed', async () => {
    const odd = Object.create(null) as object;
    const runner = new HookRunner([{ name: 't', event: 'pre_tool_use', transport: { kind: 'x', invoke: () => { throw odd; } } }]);
    const outcome = await runner.run({ ...base, input: {} });
    expect(outcome).toMatchObject({ decision: 'deny', trail: [{ failure: { code: 'internal_error' } }] });
  });
});
