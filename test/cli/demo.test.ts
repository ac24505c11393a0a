import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, jsonLines } from './cli.js';

interface Line {
  event: string;
  decision: string;
  modified?: boolean;
  replaced?: boolean;
  trail: { decision: string; failure?: { code: string }; policy?: string }[];
}

function runDemo(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
    const child = spawn(tsx, ['scripts/demo.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Ran = Awaited<ReturnType<typeof runDemo>>;

describe('the demo', () => {
  // Both sessions at once, before the tests: each is ~10 s of waiting on a quiet machine (its hooks'
  // processes start one after another, one of them is cut off at its 500 ms deadline on each call it sees)
  // and ~30 s on a loaded one, which one after another ran into the 30 s test timeout. Run side by
  // side they take the time of one, and a hook's budget (120 s) is what they answer to. Neither
  // builds anything here (`npm test` built the guests first; the JSON session must print nothing on
  // stderr); if a stale component made both build it, both would write the same bytes.
  let json: Ran;
  let table: Ran;
  beforeAll(async () => {
    [json, table] = await Promise.all([runDemo(['--json']), runDemo([])]);
  });

  it('runs the example session and shows every kind of decision', () => {
    const result = json;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout) as Line[];
    const has = (predicate: (line: Line) => boolean): boolean => lines.some(predicate);
    expect(has((l) => l.event === 'pre_tool_use' && l.decision === 'allow' && l.modified === false && l.trail.length > 0)).toBe(true);
    expect(has((l) => l.event === 'pre_tool_use' && l.decision === 'deny' && l.trail.some((t) => t.decision === 'deny' && !t.failure))).toBe(true);
    expect(has((l) => l.event === 'pre_tool_use' && l.modified === true)).toBe(true);
    expect(has((l) => l.event === 'post_tool_use' && l.decision === 'allow' && l.replaced === false)).toBe(true);
    expect(has((l) => l.event === 'post_tool_use' && l.replaced === true)).toBe(true);
    expect(has((l) => l.event === 'post_tool_use' && l.decision === 'deny')).toBe(true);
    const failures = lines.flatMap((l) => l.trail.filter((t) => t.failure !== undefined).map((t) => [l.decision, t.policy]));
    expect(failures).toContainEqual(['deny', 'deny']);
    expect(failures).toContainEqual(['allow', 'allow']);
  });

  it('prints the table by default', () => {
    const result = table;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ basis-hooks check');
    expect(result.stdout).toMatch(/^CALL\s+TOOL\s+EVENT\s+DECISION/m);
  });
});
