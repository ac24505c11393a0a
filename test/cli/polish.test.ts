import { spawn } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, jsonl, pre, ROOT, runCli } from './cli.js';
import { tempDir } from '../helpers/temp.js';

/** Committed C component of the example guard policy: no toolchain needed. */
const PREBUILT_GUARD = path.join(ROOT, 'guest-examples/c/prebuilt/guard.wasm');

/**
 * Run the CLI with stdout read by a consumer that takes the first line and goes away, like
 * `basis-hooks run … | head -1`.
 */
function runHeadOne(args: readonly string[], stdin: string): Promise<{ code: number | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let first = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const newline = out.indexOf('\n');
      if (newline >= 0 && first === '') {
        first = out.slice(0, newline);
        child.stdout.destroy(); // the reader goes away: the CLI's next write gets EPIPE
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, first, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

describe('the CLI in a pipeline and on mistakes', () => {
  it('run … | head -1 exits 0, quietly, after the reader goes away', async () => {
    const dir = await tempDir();
    const config = path.join(dir, 'hooks.json');
    await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [] }));
    // Far more output than a pipe holds, so the CLI is still writing when the reader leaves.
    const calls = Array.from({ length: 5000 }, (_, i) => pre(`c${i}`, 'shell', { command: 'x'.repeat(100) }));
    const result = await runHeadOne(['run', '--config', config], jsonl(calls));
    expect(JSON.parse(result.first)).toMatchObject({ tool_call_id: 'c0', decision: 'allow' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('inspect <dir> that is not a hook directory says what it expected (target_invalid), not EISDIR', async () => {
    const dir = await tempDir();
    const result = await runCli(['inspect', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('target_invalid');
    expect(result.stderr).toContain(dir);
    expect(result.stderr).toContain('hook.json');
    expect(result.stderr).not.toContain('EISDIR');

    const missing = await runCli(['inspect', path.join(dir, 'nope.wasm')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('target_invalid');
    expect(missing.stderr).toContain('nope.wasm');
    expect(missing.stderr).not.toContain('ENOENT');
  });

  it('inspect <hook dir> inspects the component it builds, or says to build it first', async () => {
    const dir = await tempDir();
    const hook = path.join(dir, 'guard');
    await mkdir(path.join(hook, 'build'), { recursive: true });
    await writeFile(
      path.join(hook, 'hook.json'),
      JSON.stringify({ manifest: 1, name: 'guard', event: 'pre_tool_use', lang: 'c', sources: ['hook.c'], include: [] }),
    );
    const unbuilt = await runCli(['inspect', hook]);
    expect(unbuilt.code).toBe(2);
    expect(unbuilt.stderr).toContain('target_invalid');
    expect(unbuilt.stderr).toContain(`basis-hooks build ${hook}`);

    await copyFile(PREBUILT_GUARD, path.join(hook, 'build/guard.wasm'));
    const built = await runCli(['inspect', hook, '--json']);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(JSON.parse(built.stdout)).toMatchObject({ path: path.join(hook, 'build/guard.wasm'), loads: true });
  });
});
