import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, jsonl, jsonLines, post, pre, runCli, writeConfig } from './cli.js';
import { tempDir } from '../helpers/temp.js';

const ms = expect.any(Number) as unknown as number;

/** One hook per decision, each for its own tool so every call meets exactly one. */
const HOOKS = [
  { name: 'allow-ls', event: 'pre_tool_use', tools: ['ls'], command: answer({ decision: 'allow' }) },
  { name: 'deny-push', event: 'pre_tool_use', tools: ['git_*'], command: answer({ decision: 'deny', reason: 'no pushing' }) },
  { name: 'tame-rm', event: 'pre_tool_use', tools: ['rm'], command: answer({ decision: 'modify', input: { command: 'rm -i x' }, reason: 'interactive' }) },
  { name: 'allow-ls-out', event: 'post_tool_use', tools: ['ls'], command: answer({ decision: 'allow' }) },
  { name: 'redact', event: 'post_tool_use', tools: ['cat'], command: answer({ decision: 'replace', output: '[redacted]', is_error: false, reason: 'a token' }) },
  { name: 'no-env', event: 'post_tool_use', tools: ['env'], command: answer({ decision: 'deny', reason: 'withheld' }) },
];

describe('basis-hooks run', () => {
  it('prints one outcome line per call, exactly as specified, for every decision', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, HOOKS);
    const calls = path.join(dir, 'calls.jsonl');
    await writeFile(
      calls,
      jsonl([
        pre('c1', 'ls', { command: 'ls' }),
        pre('c2', 'git_push', { ref: 'main', force: true }),
        pre('c3', 'rm', '{"command":"rm -rf x"}'),
      ]) +
        '\n   \n' + // blank lines are skipped
        jsonl([post('c1', 'ls', { command: 'ls' }, 'a\nb\n'), post('c4', 'cat', { path: '.env' }, 'TOKEN=abc', true), post('c5', 'env', {}, { HOME: '/root' })]),
    );
    const result = await runCli(['run', '--config', config, '--calls', calls]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(lines).toEqual([
      { event: 'pre_tool_use', tool_call_id: 'c1', decision: 'allow', input: { command: 'ls' }, modified: false, trail: [{ hook: 'allow-ls', decision: 'allow', ms }] },
      { event: 'pre_tool_use', tool_call_id: 'c2', decision: 'deny', reason: 'no pushing', trail: [{ hook: 'deny-push', decision: 'deny', reason: 'no pushing', ms }] },
      {
        event: 'pre_tool_use',
        tool_call_id: 'c3',
        decision: 'allow',
        input: { command: 'rm -i x' },
        modified: true,
        trail: [{ hook: 'tame-rm', decision: 'modify', reason: 'interactive', ms }],
      },
      { event: 'post_tool_use', tool_call_id: 'c1', decision: 'allow', output: 'a\nb\n', is_error: false, replaced: false, trail: [{ hook: 'allow-ls-out', decision: 'allow', ms }] },
      {
        event: 'post_tool_use',
        tool_call_id: 'c4',
        decision: 'allow',
        output: '[redacted]',
        is_error: false,
        replaced: true,
        trail: [{ hook: 'redact', decision: 'replace', reason: 'a token', ms }],
      },
      { event: 'post_tool_use', tool_call_id: 'c5', decision: 'deny', output: 'withheld', is_error: true, replaced: false, trail: [{ hook: 'no-env', decision: 'deny', reason: 'withheld', ms }] },
    ]);
    // The documented key order, so a line reads the same whoever prints it.
    expect(Object.keys(lines[0] ?? {})).toEqual(['event', 'tool_call_id', 'decision', 'input', 'modified', 'trail']);
    expect(Object.keys(lines[1] ?? {})).toEqual(['event', 'tool_call_id', 'decision', 'reason', 'trail']);
    expect(Object.keys(lines[4] ?? {})).toEqual(['event', 'tool_call_id', 'decision', 'output', 'is_error', 'replaced', 'trail']);
  });

  it('reads one pretty-printed call from stdin', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, HOOKS);
    const result = await runCli(['run', '--config', config], { stdin: JSON.stringify(pre('c1', 'rm', { command: 'rm -rf x' }), null, 2) });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ tool_call_id: 'c1', decision: 'allow', modified: true, input: { command: 'rm -i x' } })]);
  });

  it('reads JSON lines from stdin, applying the parse rule to string inputs', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, HOOKS);
    const stdin = jsonl([pre('c1', 'ls', '{"command":"ls"}'), pre('c2', 'ls', 'ls -la'), pre('c3', 'other', 7)]);
    const result = await runCli(['run', '--config', config], { stdin });
    expect(result.code).toBe(0);
    expect((jsonLines(result.stdout) as { input: unknown; trail: unknown[] }[]).map((o) => [o.input, o.trail.length])).toEqual([
      [{ command: 'ls' }, 1],
      ['ls -la', 1],
      [7, 0], // no hook matches tool "other"
    ]);
  });

  it('flushes outcomes of several megabytes completely before exiting', async () => {
    const dir = await tempDir();
    const size = 3 * 1024 * 1024;
    const config = await writeConfig(dir, [
      { name: 'big', event: 'post_tool_use', command: ['node', 'hooks/answer.mjs', '--big', String(size)], max_output_bytes: 16 * 1024 * 1024 },
    ]);
    const stdin = jsonl([1, 2, 3].map((n) => post(`c${n}`, 'cat', {}, 'small')));
    const result = await runCli(['run', '--config', config], { stdin });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(3 * size);
    const lines = jsonLines(result.stdout) as { tool_call_id: string; output: string; replaced: boolean }[];
    expect(lines.map((l) => [l.tool_call_id, l.output.length, l.replaced])).toEqual([
      ['c1', size, true],
      ['c2', size, true],
      ['c3', size, true],
    ]);
  });

  it('a command that cannot be started is a spawn_failed failure under its policy, not an exit 2', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'ghost-open', event: 'pre_tool_use', command: ['basis-hooks-no-such-program-xyz'], on_failure: 'allow' },
      { name: 'ghost-closed', event: 'pre_tool_use', command: ['./hooks/missing.sh'] },
    ]);
    const result = await runCli(['run', '--config', config], { stdin: jsonl([pre('c1', 'shell', {})]) });
    expect(result.code).toBe(0);
    const [outcome] = jsonLines(result.stdout) as { decision: string; trail: { hook: string; decision: string; policy?: string; failure?: { code: string } }[] }[];
    expect(outcome?.decision).toBe('deny');
    expect(outcome?.trail.map((t) => [t.hook, t.decision, t.failure?.code, t.policy])).toEqual([
      ['ghost-open', 'allow', 'spawn_failed', 'allow'],
      ['ghost-closed', 'deny', 'spawn_failed', 'deny'],
    ]);
  });

  it('--table prints a table with the decision and each hook of the trail', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      ...HOOKS,
      { name: 'ghost', event: 'pre_tool_use', tools: ['ls'], command: ['basis-hooks-no-such-program-xyz'], on_failure: 'allow' },
    ]);
    const stdin = jsonl([pre('c1', 'ls', {}), pre('c2', 'git_push', {}), pre('c3', 'rm', {}), post('c4', 'cat', {}, 'TOKEN=1')]);
    const result = await runCli(['run', '--config', config, '--table'], { stdin });
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\n');
    expect(rows[0]).toMatch(/^CALL\s+TOOL\s+EVENT\s+DECISION\s+DETAIL$/);
    expect(rows.find((r) => r.startsWith('c2'))).toMatch(/^c2\s+git_push\s+pre_tool_use\s+deny\s+no pushing$/);
    expect(rows.find((r) => r.startsWith('c3'))).toMatch(/\smodify\s/);
    expect(rows.find((r) => r.startsWith('c4'))).toMatch(/\sreplace\s/);
    expect(rows.find((r) => r.includes('↳ ghost'))).toMatch(/allow\s+spawn_failed \(on_failure allow\)/);
  });
});

describe('basis-hooks run: refusals exit 2 with the problem on stderr and nothing on stdout', () => {
  it('validates every call before running any, naming line, key and value', async () => {
    const dir = await tempDir();
    const marks = path.join(dir, 'ran.txt');
    const config = await writeConfig(dir, [{ name: 'mark', event: 'pre_tool_use', command: answer({ decision: 'allow' }, '--mark', marks) }]);
    const stdin = `${JSON.stringify(pre('c1', 'ls', {}))}\n${JSON.stringify({ ...pre('c2', 'ls', {}), event: 'pre_tool' })}\n{not json\n`;
    const result = await runCli(['run', '--config', config], { stdin });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('<stdin>:2: event: "pre_tool" is not one of pre_tool_use, post_tool_use');
    expect(result.stderr).toContain('<stdin>:3: not valid JSON');
    await expect(readFile(marks, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names the calls file, the line and a missing key', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, HOOKS);
    const calls = path.join(dir, 'calls.jsonl');
    const { tool_name: _, ...noTool } = pre('c1', 'ls', {});
    await writeFile(calls, `\n${JSON.stringify(noTool)}\n`);
    const result = await runCli(['run', '--config', config, '--calls', calls]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${calls}:2: tool_name: is required`);
  });

  it('an invalid config names the file and every issue', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [{ name: 'a', event: 'pre_tool', command: ['true'] }, { name: 'b', event: 'pre_tool_use', command: ['true'], memory_mb: 1 }]);
    const result = await runCli(['run', '--config', config], { stdin: jsonl([pre('c1', 'ls', {})]) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(config);
    expect(result.stderr).toContain('hooks[0].event: "pre_tool" is not one of pre_tool_use, post_tool_use');
    expect(result.stderr).toContain('hooks[1].memory_mb: unknown key for a command hook');
  });

  it('a missing config file is reported as unreadable', async () => {
    const result = await runCli(['run', '--config', '/nonexistent/hooks.json'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('/nonexistent/hooks.json');
    expect(result.stderr).toContain('file not found');
  });

  it('a component hook that cannot be loaded is load_failed', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'broken.wasm'), 'not wasm');
    const config = await writeConfig(dir, [{ name: 'broken', event: 'post_tool_use', component: 'broken.wasm' }]);
    const result = await runCli(['run', '--config', config], { stdin: jsonl([post('c1', 'ls', {}, '')]) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('load_failed');
    expect(result.stderr).toContain('"broken"');
  });

  it.each([
    [['run'], '--config'],
    [['run', '--config'], '--config'],
    [['run', '--config', 'x.json', '--bogus'], '--bogus'],
    [['run', '--config', 'x.json', 'stray'], 'stray'],
    [['frobnicate'], '"frobnicate"'],
    [['--bogus'], '"--bogus"'],
  ])('usage error: %j — the problem and a one-line pointer to --help, not the whole usage', async (args, named) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(named);
    expect(lines[1]).toContain('--help');
    expect(result.stderr).not.toContain('Usage:');
  });

  it('with no command at all, prints the usage (exit 2)', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: basis-hooks <command>');
  });
});

describe('basis-hooks --help and --version', () => {
  it('prints the usage, per command too', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Commands:');
    expect(top.stdout).toMatch(/run\s/);
    expect(top.stdout).toMatch(/check\s/);
    for (const command of ['run', 'check']) {
      const help = await runCli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: basis-hooks ${command} --config`);
    }
  });

  it('prints the version from package.json', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});
