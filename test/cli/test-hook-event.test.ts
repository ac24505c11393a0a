import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, post, pre, runCli, writeConfig } from './cli.js';
import { tempDir } from '../helpers/temp.js';

interface Report {
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
  results: Array<{ name: string; status: string; reason?: string }>;
}

describe('basis-hooks test --config --hook', () => {
  it('runs only the cases at the hook\'s own event and says how many it skipped, and why', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [
      { name: 'guard', event: 'pre_tool_use', command: answer({ decision: 'deny', reason: 'no' }) },
      { name: 'redact', event: 'post_tool_use', command: answer({ decision: 'replace', output: 'x' }) },
    ]);
    const cases = path.join(dir, 'cases.jsonl');
    await writeFile(
      cases,
      [
        { name: 'pre is denied', call: pre('c1', 'shell', 'ls'), expect: { decision: 'deny', reason: 'no' } },
        // Before the fix these ran the pre-only guard at post_tool_use, where a deny "passes" as nothing it does.
        { name: 'post a', call: post('c2', 'shell', 'ls', 'out'), expect: { decision: 'allow' } },
        { name: 'post b', call: post('c3', 'shell', 'ls', 'out'), expect: { decision: 'deny' } },
      ]
        .map((c) => `${JSON.stringify(c)}\n`)
        .join(''),
    );

    const json = await runCli(['test', '--config', config, '--hook', 'guard', '--cases', cases, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Report;
    expect(report).toMatchObject({ ok: true, passed: 1, failed: 0, skipped: 2 });
    expect(report.results.filter((r) => r.status === 'skip').map((r) => r.reason)).toEqual([
      'at post_tool_use; hook "guard" runs at pre_tool_use',
      'at post_tool_use; hook "guard" runs at pre_tool_use',
    ]);

    const text = await runCli(['test', '--config', config, '--hook', 'guard', '--cases', cases]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('skipped 2: at post_tool_use; hook "guard" runs at pre_tool_use\n1 passed, 0 failed, 2 skipped\n');
  });

  it('a config whose only hook is for the other event ran nothing, and fails (exit 1)', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, [{ name: 'redact', event: 'post_tool_use', command: answer({ decision: 'allow' }) }]);
    const cases = path.join(dir, 'cases.jsonl');
    await writeFile(cases, `${JSON.stringify({ name: 'pre', call: pre('c1', 'shell', 'ls'), expect: { decision: 'allow' } })}\n`);
    const result = await runCli(['test', '--config', config, '--cases', cases, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, passed: 0, skipped: 1 });
  });
});
