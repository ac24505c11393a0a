/**
 * The host never crashes on data: tool values and hook answers beyond the JSON limits are typed
 * failures, and every later call still runs. Real subprocess hooks and interceptors.
 */
import { describe, expect, it } from 'vitest';
import {
  HookRunner,
  interceptorTransport,
  JSON_LIMITS,
  RunnerError,
  subprocessTransport,
  type HookCall,
  type JsonValue,
} from '../../host/index.js';
import { hookArgv } from '../transports/subprocess/helpers.js';

function nestedArrays(depth: number): JsonValue {
  let value: JsonValue = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

const call = (id: string, input: unknown, tool = 'shell'): HookCall =>
  ({ event: 'pre_tool_use', workspace: '/nonexistent', agent_id: 'a1', tool_call_id: id, tool_name: tool, input }) as HookCall;

async function invalidCall(promise: Promise<unknown>): Promise<RunnerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunnerError);
  expect((error as RunnerError).code).toBe('invalid_call');
  return error as RunnerError;
}

describe('limits: hook answers', () => {
  it('a subprocess hook printing 3,000 nested arrays fails malformed_response, and the next call runs', async () => {
    const runner = new HookRunner([
      { name: 'deep', event: 'pre_tool_use', tools: ['deep'], transport: subprocessTransport({ command: hookArgv('deep-answer') }) },
    ]);
    try {
      const first = await runner.run(call('c1', {}, 'deep'));
      expect(first).toMatchObject({ decision: 'deny', trail: [{ hook: 'deep', failure: { code: 'malformed_response' } }] });
      const second = await runner.run(call('c2', { command: 'ls' }));
      expect(second).toMatchObject({ decision: 'allow', input: { command: 'ls' } });
    } finally {
      await runner.close();
    }
  });

  it('a hook echoing an input at max_depth is taken whole: the call limit and the answer limit agree', async () => {
    const runner = new HookRunner([{ name: 'echo', event: 'pre_tool_use', transport: subprocessTransport({ command: hookArgv('echo-input') }) }]);
    try {
      const input = nestedArrays(JSON_LIMITS.max_depth);
      const outcome = await runner.run(call('c1', input));
      expect(outcome).toMatchObject({ decision: 'allow', modified: true, input });
    } finally {
      await runner.close();
    }
  });

  it('an answer naming "decision" twice is malformed_response (never read as allow)', async () => {
    const runner = new HookRunner([{ name: 'dup', event: 'pre_tool_use', transport: subprocessTransport({ command: hookArgv('duplicate-decision') }) }]);
    try {
      const outcome = await runner.run(call('c1', {}));
      expect(outcome).toMatchObject({ decision: 'deny', trail: [{ failure: { code: 'malformed_response' } }] });
    } finally {
      await runner.close();
    }
  });

  it('an interceptor answering a circular, a too-deep or a BigInt input fails malformed_response, never throws', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const answers: unknown[] = [
      { decision: 'modify', input: cyclic },
      { decision: 'modify', input: nestedArrays(10_000) },
      { decision: 'modify', input: { n: 1n } },
      { decision: 'replace', output: () => 1 },
    ];
    for (const answer of answers) {
      const runner = new HookRunner([{ name: 'i', event: 'pre_tool_use', transport: interceptorTransport(() => answer as never) }]);
      const outcome = await runner.run(call('c1', {}));
      expect(outcome).toMatchObject({ decision: 'deny', trail: [{ failure: { code: 'malformed_response' } }] });
    }
  });
});

describe('limits: calls', () => {
  const runner = new HookRunner([
    { name: 'only-other', event: 'pre_tool_use', tools: ['other'], transport: interceptorTransport(() => ({ decision: 'allow' })) },
  ]);

  it('a 5,000-deep tool input on a tool no hook matches is invalid_call naming the path, and the next call runs', async () => {
    const error = await invalidCall(runner.run(call('c1', nestedArrays(5000))));
    expect(error.message).toContain('input[0][0]');
    expect(error.message).toContain('deeper than 256');
    await expect(runner.run(call('c2', { command: 'ls' }))).resolves.toMatchObject({ decision: 'allow' });
  });

  it('raw input text that is JSON nested beyond the limit is invalid_call too (after the parse rule)', async () => {
    const text = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const error = await invalidCall(runner.run(call('c1', text)));
    expect(error.message).toContain('raw text');
    // Raw text that is not JSON is not parsed, so it is not too deep: it is a string.
    await expect(runner.run(call('c2', `${'['.repeat(5000)}`))).resolves.toMatchObject({ decision: 'allow', input: '['.repeat(5000) });
  });

  it('a post_tool_use output beyond the limit is invalid_call', async () => {
    const post = { ...call('c1', {}), event: 'post_tool_use', output: nestedArrays(300), is_error: false } as HookCall;
    expect((await invalidCall(runner.run(post))).message).toContain('output');
  });

  it('an output longer than max_length as JSON text is invalid_call', async () => {
    const post = { ...call('c1', {}), event: 'post_tool_use', output: 'x'.repeat(JSON_LIMITS.max_length), is_error: false } as HookCall;
    expect((await invalidCall(runner.run(post))).message).toContain('longer than');
  });
});
