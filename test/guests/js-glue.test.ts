/**
 * The JavaScript glue (guest-examples/js/glue/hook.js) through a real component built by the kit: a
 * hook sees the contract's request (field names, parsed input, output/is_error absent before the
 * call), its answer in the contract's shapes reaches the host as that answer, a wrong shape or a throw
 * is a `guest_error` saying what was expected, `console.*` lands in the captured stderr, and
 * `context.env` is the granted environment. Built with QuickJS (seconds); the SpiderMonkey side of the
 * same glue runs in the conformance suite and test/guests/js.test.ts.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookRequest } from '../../host/index.js';
import { buildHook, isKitError } from '../../host/kit/index.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';

const FIXTURE = join(ROOT, 'test/fixtures/js-glue');
const base = { hook_schema: 1, workspace: '/ws', agent_id: 'agent-1', tool_call_id: 'c1' } as const;
const pre = (tool_name: string, input: HookRequest['input'] = { command: 'ls' }): HookRequest => ({ ...base, event: 'pre_tool_use', tool_name, input });
const post = (tool_name: string, output: HookRequest['input'] = 'done', is_error = false): HookRequest => ({ ...base, event: 'post_tool_use', tool_name, input: { command: 'ls' }, output, is_error });

let work: string;
let transport: ComponentTransport;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'basis-js-glue-'));
  await cp(FIXTURE, join(work, 'hook'), { recursive: true });
  const built = await buildHook({ dir: join(work, 'hook'), manifest: { manifest: 1, name: 'glue', event: 'pre_tool_use', lang: 'js', source: 'hook.js', engine: 'quickjs' } }, { verify: false });
  // A generous deadline: this file is about shapes and logs, not time (the flood case runs ~0.3 s
  // alone, and the suite runs three files at once on two cores). The suite's transpile cache is keyed
  // by content, so a rebuild of the same source reuses it.
  transport = componentTransport({ path: built.out, cache_dir: TEST_CACHE_DIR, timeout_ms: 10_000, grants: { env: { GREETING: 'hello' } }, max_log_bytes: 4096 });
  await transport.load();
}, 300_000);

afterAll(async () => {
  await transport?.close();
  await rm(work, { recursive: true, force: true });
});

const invoke = (request: HookRequest) => transport.invoke(request, { hook: 'glue' });

describe('js glue: the request a hook sees', () => {
  it('before the call: the contract\'s fields, input parsed, no output or is_error keys', async () => {
    const result = await invoke(pre('echo', { command: 'git status', flags: [1, true, null] }));
    expect(result.ok && result.response).toEqual({
      decision: 'modify',
      input: {
        request: { ...base, event: 'pre_tool_use', tool_name: 'echo', input: { command: 'git status', flags: [1, true, null] } },
        keys: ['hook_schema', 'event', 'workspace', 'agent_id', 'tool_call_id', 'tool_name', 'input'],
      },
    });
  });

  it('raw-text input arrives as the string itself', async () => {
    const result = await invoke(pre('echo', 'not json {'));
    expect(result.ok && result.response.decision === 'modify' && (result.response.input as { request: { input: unknown } }).request.input).toBe('not json {');
  });

  it('after the call: output as a value and is_error', async () => {
    const result = await invoke(post('echo', { rows: 3 }, true));
    expect(result.ok && result.response).toEqual({
      decision: 'replace',
      output: {
        request: { ...base, event: 'post_tool_use', tool_name: 'echo', input: { command: 'ls' }, output: { rows: 3 }, is_error: true },
        keys: ['hook_schema', 'event', 'workspace', 'agent_id', 'tool_call_id', 'tool_name', 'input', 'output', 'is_error'],
      },
    });
  });

  it('context.env is the granted environment, read at call time', async () => {
    const result = await invoke(pre('env'));
    expect(result.ok && result.response).toEqual({ decision: 'deny', reason: '{"GREETING":"hello"}' });
  });
});

describe('js glue: answers', () => {
  it('modify and replace carry their values and reasons through', async () => {
    const before = await invoke(pre('reasons'));
    expect(before.ok && before.response).toEqual({ decision: 'modify', input: 'raw text', reason: 'audit only' });
    const after = await invoke(post('reasons'));
    expect(after.ok && after.response).toEqual({ decision: 'replace', output: [1, 'two'], is_error: false, reason: 'audit only' });
  });

  it('an empty deny reason reaches the host, which refuses it as for every transport', async () => {
    const result = await invoke(pre('empty-reason'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.code).toBe('malformed_response');
  });

  const wrong: ReadonlyArray<readonly [string, string]> = [
    ['wit-shape', 'no "decision" ({tag, val} is the WIT\'s shape'],
    ['no-decision', 'no "decision"'],
    ['unknown-decision', 'unknown decision "block"'],
    ['deny-without-reason', 'a deny needs "reason"'],
    ['modify-without-input', 'a modify needs "input"'],
    ['replace-without-output', 'a replace needs "output"'],
    ['reason-not-string', '"reason" must be a string'],
    ['is-error-not-boolean', '"is_error" must be a boolean'],
    ['not-json', '"input" cannot be written as JSON'],
    ['nothing', 'handle returned undefined: not an object'],
    ['promise', 'handle runs synchronously'],
  ];
  for (const [tool, problem] of wrong) {
    it(`a wrong shape (${tool}) is a guest_error naming the problem and the shapes expected`, async () => {
      const result = await invoke(tool === 'is-error-not-boolean' || tool === 'replace-without-output' ? post(tool) : pre(tool));
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.failure.code).toBe('guest_error');
      expect(result.failure.message).toContain(problem);
      expect(result.failure.message).toContain('expected one of {"decision":"allow"}, {"decision":"deny","reason":"<why>"}');
    });
  }

  it('a thrown Error is a guest_error with its name, message and the hook\'s own frames', async () => {
    const result = await invoke(pre('throw-error'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.code).toBe('guest_error');
    expect(result.failure.message).toContain('handle threw RangeError: out of range on purpose');
    expect(result.failure.message).toContain('hook.js');
    expect(result.failure.message).not.toContain('build/entry/');
  });

  it('a thrown string is the failure message as it is', async () => {
    const result = await invoke(pre('throw-string'));
    expect(!result.ok && result.failure).toMatchObject({ code: 'guest_error', message: expect.stringContaining('a plain failure') });
  });

  it('the instance survives every failure: the next call answers normally', async () => {
    const result = await invoke(pre('shell'));
    expect(result.ok && result.response).toEqual({ decision: 'allow' });
  });
});

describe('js glue: console', () => {
  it('console.log/info/debug/warn/error go to the captured stderr, values as JSON, errors with their name', async () => {
    const result = await invoke(pre('log'));
    expect(result.ok).toBe(true);
    const stderr = result.logs?.stderr ?? '';
    expect(stderr.split('\n').slice(0, 5)).toEqual(['log 1 {"a":[true,null]} ünïcödé ✓', 'info', 'debug', 'warn', 'TypeError: an error object']);
    expect(result.logs?.stdout).toBeUndefined();
  });

  it('a flood of logging is capped by max_log_bytes and never fails the hook', async () => {
    const result = await invoke(pre('flood'));
    expect(result.ok && result.response).toEqual({ decision: 'allow' });
    expect(result.logs?.stderr).toContain('more bytes dropped (cap 4096)');
  });
});

describe('js glue: the build', () => {
  it('a module that exports the raw WIT `handler` instead of `handle` does not build, and says what to export', async () => {
    const dir = join(work, 'raw');
    await cp(FIXTURE, dir, { recursive: true });
    const failure = await buildHook({ dir, manifest: { manifest: 1, name: 'raw', event: 'pre_tool_use', lang: 'js', source: 'raw-wit.js', engine: 'quickjs' } }, { verify: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isKitError(failure) && failure.code).toBe('build_failed');
    expect(String((failure as Error).message)).toContain('raw-wit.js must export `function handle(request, context)`');
  }, 300_000);
});
