/**
 * `basis-hooks run` never crashes on data: a call beyond the JSON limits is an invalid call (exit 2,
 * named by line and path, as every invalid call is), and a hook's answer beyond them is that hook's
 * `malformed_response` while every later call still runs.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonl, jsonLines, pre, runCli, writeConfig } from './cli.js';
import { tempDir } from '../helpers/temp.js';

const MISBEHAVING = fileURLToPath(new URL('../fixtures/subprocess/misbehaving-hook.mjs', import.meta.url));

function deep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

describe('basis-hooks run: JSON limits', () => {
  it('a 5,000-deep tool input on a tool no hook matches: named as an invalid call, exit 2, no internal error', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [{ name: 'other', event: 'pre_tool_use', tools: ['other'], command: ['true'] }]);
    const calls = path.join(dir, 'calls.jsonl');
    const line1 = JSON.stringify(pre('c1', 'shell', 'X')).replace('"X"', deep(5000));
    await writeFile(calls, `${line1}\n${jsonl([pre('c2', 'shell', { command: 'ls' })])}`);
    const result = await runCli(['run', '--config', config, '--calls', calls]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr).toContain(`${calls}:1: input[0][0]`);
    expect(result.stderr).toContain('deeper than 256');
    expect(result.stdout).toBe('');
  });

  it('raw input text that is JSON nested too deep is caught before any call runs, too', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, []);
    const result = await runCli(['run', '--config', config], { stdin: jsonl([pre('c1', 'shell', deep(5000))]) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('<stdin>:1: input (raw text that is JSON)');
  });

  it('a hook answering 3,000 nested arrays fails malformed_response; the next call runs; exit 0', async () => {
    const dir = await tempDir();
    await writeConfig(dir, []); // makes hooks/
    await copyFile(MISBEHAVING, path.join(dir, 'hooks/misbehaving-hook.mjs'));
    const config = await writeConfig(dir, [
      { name: 'deep', event: 'pre_tool_use', tools: ['deep'], command: ['node', 'hooks/misbehaving-hook.mjs', 'deep-answer'] },
    ]);
    const result = await runCli(['run', '--config', config], { stdin: jsonl([pre('c1', 'deep', {}), pre('c2', 'shell', { command: 'ls' })]) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toMatchObject([
      { tool_call_id: 'c1', decision: 'deny', trail: [{ hook: 'deep', failure: { code: 'malformed_response' } }] },
      { tool_call_id: 'c2', decision: 'allow' },
    ]);
  });
});

describe('basis-hooks check: a config nested deep where a scalar belongs', () => {
  it('is an invalid config naming the key, not an internal error', async () => {
    const dir = await tempDir();
    const deepValue = deep(20_000);
    for (const [name, text] of [
      ['version.json', `{"hook_schema":${deepValue},"hooks":[]}`],
      ['hooks.json', `{"hook_schema":1,"hooks":[${deepValue}]}`],
      ['env.json', `{"hook_schema":1,"hooks":[{"name":"x","event":"pre_tool_use","command":["true"],"env":${deepValue}}]}`],
    ] as const) {
      await writeFile(path.join(dir, name), text);
      const result = await runCli(['check', '--config', path.join(dir, name)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('invalid config');
      expect(result.stderr).not.toContain('internal error');
    }
  });
});
