import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kit, ROOT, scratchDir } from './kit.js';

/** The CLI tests' fixed-answer hook: prints the response given as its argument. */
const ANSWER = join(ROOT, 'test/cli/hooks/answer.mjs');
const POLICY_CASES = join(ROOT, 'guest-examples/policy-cases.jsonl');
/** Committed C components of the example policies: no toolchain needed. */
const PREBUILT = join(ROOT, 'guest-examples/c/prebuilt');

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir();
  await copyFile(ANSWER, join(scratch.path, 'answer.mjs'));
  await writeFile(join(scratch.path, 'garbage.wasm'), 'not WebAssembly\n');
  await writeFile(
    join(scratch.path, 'hooks.json'),
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'guard', event: 'pre_tool_use', component: join(PREBUILT, 'guard.wasm') },
        { name: 'redact', event: 'post_tool_use', component: join(PREBUILT, 'redact.wasm') },
        { name: 'shell-only', event: 'pre_tool_use', tools: ['shell'], command: ['node', './answer.mjs', '{"decision":"deny","reason":"no"}'] },
      ],
    }),
  );
});
afterAll(async () => {
  await scratch.dispose();
});

const call = (event: 'pre_tool_use' | 'post_tool_use', tool = 'shell'): Record<string, unknown> => ({
  event,
  workspace: '/repo',
  agent_id: 'agent-1',
  tool_call_id: 'c1',
  tool_name: tool,
  input: { command: 'ls' },
  ...(event === 'post_tool_use' ? { output: 'ok', is_error: false } : {}),
});

async function casesFile(name: string, cases: readonly unknown[]): Promise<string> {
  const file = join(scratch.path, name);
  await writeFile(file, cases.map((c) => `${JSON.stringify(c)}\n`).join(''));
  return file;
}

interface Report {
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
  results: Array<{ name: string; status: string; actual?: Record<string, unknown>; reason?: string }>;
}

describe('basis-hooks test', () => {
  it('the example policies\' cases pass against a config, each case picking its hook by its "hook" field', async () => {
    const result = await kit(['test', '--config', join(scratch.path, 'hooks.json'), '--cases', POLICY_CASES, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    // A config's hook runs at its own event: the cases of the guests' off-event behaviour are skipped.
    expect(report).toMatchObject({ ok: true, failed: 0, skipped: 2 });
    expect(report.passed).toBe(16);
  });

  it('--hook tests one hook and skips the cases of the others; --event keeps one event\'s cases', async () => {
    const config = join(scratch.path, 'hooks.json');
    const guard = JSON.parse((await kit(['test', '--config', config, '--hook', 'guard', '--cases', POLICY_CASES, '--json'])).stdout) as Report;
    expect(guard).toMatchObject({ ok: true, passed: 10, failed: 0, skipped: 8 });
    expect(guard.results.find((r) => r.status === 'skip')?.reason).toBe('for hook "redact"');

    const component = await kit(['test', join(PREBUILT, 'redact.wasm'), '--hook', 'redact', '--event', 'post_tool_use', '--cases', POLICY_CASES, '--json']);
    expect(component.code).toBe(0);
    expect(JSON.parse(component.stdout)).toMatchObject({ ok: true, passed: 6, failed: 0, skipped: 12 });
  });

  it('a config hook keeps its tool matcher: a call to another tool does not reach it', async () => {
    const cases = await casesFile('tools.jsonl', [
      { name: 'shell is denied', call: call('pre_tool_use'), expect: { decision: 'deny', reason: 'no' } },
      { name: 'other tools are not seen', call: call('pre_tool_use', 'read'), expect: { decision: 'deny' } },
    ]);
    const result = await kit(['test', '--config', join(scratch.path, 'hooks.json'), '--hook', 'shell-only', '--cases', cases]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ {2}ok {4}shell is denied/);
    expect(result.stdout).toMatch(/ {2}FAIL {2}other tools are not seen[^\n]*\n(.*\n)*? {8}\(the hook did not run: its "tools" do not match this call\)/);
  });

  it('--command: an answer for the wrong event is a failure, as in production, and can be expected as one', async () => {
    const modify = `node answer.mjs '{"decision":"modify","input":{"command":"ls -a"}}'`;
    const cases = await casesFile('wrong-event.jsonl', [
      { name: 'modify before the call', call: call('pre_tool_use'), expect: { decision: 'modify', input: { command: 'ls -a' } } },
      { name: 'modify after the call fails', call: call('post_tool_use'), expect: { failure: 'wrong_decision_for_event' } },
    ]);
    const result = await kit(['test', '--command', modify, '--cases', cases, '--json'], { cwd: scratch.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, passed: 2, failed: 0 });
  });

  it('--command: a failing case shows expected (-) against actual (+), the failure code included; exit 1', async () => {
    const cases = await casesFile('failing.jsonl', [
      { name: 'allowed', call: call('pre_tool_use'), expect: { decision: 'allow' } },
      { name: 'expected a deny', call: call('pre_tool_use'), expect: { decision: 'deny', reason: 'nope' } },
    ]);
    const result = await kit(['test', '--command', 'node answer.mjs "not json"', '--cases', cases], { cwd: scratch.path });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith('  FAIL  expected a deny'));
    const diff = lines.slice(start + 1, start + 12);
    expect(diff).toContain('        -   "decision": "deny",');
    expect(diff).toContain('        -   "reason": "nope"');
    expect(diff).toContain('        +   "failure": "malformed_response",');
    expect(result.stdout).toMatch(/\n0 passed, 2 failed, 0 skipped\n$/);
  });

  it('a run where every case is skipped fails (exit 1): nothing was tested', async () => {
    const cases = await casesFile('pre-only.jsonl', [{ name: 'pre', call: call('pre_tool_use'), expect: { decision: 'allow' } }]);
    const result = await kit(['test', '--command', 'node answer.mjs \'{"decision":"allow"}\'', '--cases', cases, '--event', 'post_tool_use'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/0 passed, 0 failed, 1 skipped: no case ran\n$/);
  });

  it('an invalid cases file exits 2 listing every problem, and runs nothing', async () => {
    const file = join(scratch.path, 'invalid.jsonl');
    await writeFile(
      file,
      [
        JSON.stringify({ name: 'no expect', call: call('pre_tool_use') }),
        '{ not json',
        JSON.stringify({ name: 'replace before the call', call: call('pre_tool_use'), expect: { decision: 'replace' } }),
        JSON.stringify({ name: 'bad code', call: call('pre_tool_use'), expect: { failure: 'exploded' } }),
        '',
      ].join('\n'),
    );
    const result = await kit(['test', '--command', 'node answer.mjs \'{"decision":"allow"}\'', '--cases', file], { cwd: scratch.path });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('invalid.jsonl:1: expect: is required');
    expect(result.stderr).toContain('invalid.jsonl:2: not valid JSON');
    expect(result.stderr).toContain('invalid.jsonl:3: expect.decision: "replace" cannot be the outcome at pre_tool_use');
    expect(result.stderr).toMatch(/invalid\.jsonl:4: expect\.failure: "exploded" is not one of spawn_failed/);
  });

  it('cases naming no hook, against a config of several: run through the whole chain and judged as check --cases judges them', async () => {
    await writeFile(
      join(scratch.path, 'deny-rm.mjs'),
      "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.stringify(JSON.parse(s).input).includes('rm -rf') ? { decision: 'deny', reason: 'no rm -rf' } : { decision: 'allow' })));\n",
    );
    const config = join(scratch.path, 'chain.json');
    await writeFile(
      config,
      JSON.stringify({
        hook_schema: 1,
        hooks: [
          { name: 'deny-rm', event: 'pre_tool_use', command: ['node', './deny-rm.mjs'] },
          // A shadow hook's deny is recorded, never enforced: alone it answers deny, in the chain the outcome is allow.
          { name: 'shadow-deny', event: 'pre_tool_use', mode: 'shadow', command: ['node', './answer.mjs', '{"decision":"deny","reason":"shadow says no"}'] },
          { name: 'redact', event: 'post_tool_use', command: ['node', './answer.mjs', '{"decision":"replace","output":"[redacted]"}'] },
        ],
      }),
    );
    const rm = { ...call('pre_tool_use'), input: { command: 'rm -rf /' } };
    const cases = await casesFile('chain.jsonl', [
      { name: 'rm -rf is denied', call: rm, expect: { decision: 'deny', reason: 'no rm -rf' } },
      { name: 'ls is allowed: the shadow deny is not enforced', call: call('pre_tool_use'), expect: { decision: 'allow' } },
      { name: 'the output is redacted', call: call('post_tool_use'), expect: { decision: 'replace', output: '[redacted]' } },
    ]);

    const checked = await kit(['check', '--config', config, '--cases', cases, '--warm', '0', '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    expect((JSON.parse(checked.stdout) as { cases: Array<{ status: string }> }).cases.map((c) => c.status)).toEqual(['pass', 'pass', 'pass']);

    const tested = await kit(['test', '--config', config, '--cases', cases, '--json']);
    expect(tested.code, tested.stderr).toBe(0);
    const report = JSON.parse(tested.stdout) as Omit<Report, 'results'> & { results: Array<{ chain?: string[] }> };
    expect(report).toMatchObject({ ok: true, passed: 3, failed: 0, skipped: 0 });
    expect(report.results.map((r) => r.chain)).toEqual([['deny-rm', 'shadow-deny'], ['deny-rm', 'shadow-deny'], ['redact']]);

    // A failing chain case says it is the chain's outcome that differs.
    const wrong = await casesFile('chain-wrong.jsonl', [{ name: 'ls denied?', call: call('pre_tool_use'), expect: { decision: 'deny' } }]);
    const failed = await kit(['test', '--config', config, '--cases', wrong]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('  FAIL  ls denied?  (');
    expect(failed.stdout).toContain(', the chain (deny-rm, shadow-deny) at pre_tool_use)\n');
    expect(failed.stdout).toContain('        +   "decision": "allow"');
  });

  it('usage errors exit 2: no hook, two hooks, no cases, an unknown hook in the config, a component that does not load', async () => {
    const config = join(scratch.path, 'hooks.json');
    const checks: Array<[string[], RegExp]> = [
      [['test', '--cases', POLICY_CASES], /give exactly one hook to test/],
      [['test', join(PREBUILT, 'guard.wasm'), '--config', config, '--cases', POLICY_CASES], /give exactly one hook to test/],
      [['test', join(PREBUILT, 'guard.wasm')], /--cases <cases\.jsonl> is required/],
      [['test', '--config', config, '--hook', 'nope', '--cases', POLICY_CASES], /target_invalid: .*no hook named "nope" \(it has: guard, redact, shell-only\)/],
      [['test', join(scratch.path, 'garbage.wasm'), '--cases', POLICY_CASES], /load_failed: .*not a WebAssembly component/],
    ];
    for (const [args, message] of checks) {
      const result = await kit(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });
});
