/**
 * Through the CLI: a hook's escaped descendants do not outlive `basis-hooks run`, and dependencies'
 * debug output never reaches stdout (the protocol channel).
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { containment } from '../../host/transports/subprocess/containment.js';
import { CLI, jsonl, jsonLines, pre, ROOT, writeConfig, type CliResult } from './cli.js';
import { tempDir } from '../helpers/temp.js';
import { eventually, isAlive } from '../transports/subprocess/helpers.js';

const MISBEHAVING = fileURLToPath(new URL('../fixtures/subprocess/misbehaving-hook.mjs', import.meta.url));
const GUARD = path.join(ROOT, 'guest-examples/c/prebuilt/guard.wasm');
const how = await containment();

function cli(args: readonly string[], stdin: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.end(stdin);
  });
}

const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

describe('basis-hooks run', () => {
  it.skipIf(how.kind !== 'pid-namespace')('a hook\'s setsid daemon does not outlive the call, nor the CLI', async () => {
    const dir = await tempDir();
    await writeConfig(dir, []);
    await copyFile(MISBEHAVING, path.join(dir, 'hooks/misbehaving-hook.mjs'));
    const config = await writeConfig(dir, [{ name: 'd', event: 'pre_tool_use', command: ['node', 'hooks/misbehaving-hook.mjs', 'escaped-daemon'] }]);
    const pids = path.join(dir, 'pids.json');
    const result = await cli(['run', '--config', config], jsonl([pre('c1', 'shell', {})]), { BASIS_TEST_PID_FILE: pids });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toMatchObject([{ decision: 'allow' }]);
    const { grandchild } = JSON.parse(await readFile(pids, 'utf8')) as { grandchild: number };
    leftovers.push(grandchild);
    expect(await eventually(() => !isAlive(grandchild))).toBe(true);
  });

  it('with JCO_DEBUG=1 stdout holds the outcome lines and nothing else, on a cold cache (jco runs)', async () => {
    const dir = await tempDir();
    const cache = await mkdtemp(path.join(tmpdir(), 'basis-jco-debug-'));
    try {
      const config = await writeConfig(dir, [{ name: 'guard', event: 'pre_tool_use', component: GUARD }]);
      const result = await cli(['run', '--config', config], jsonl([pre('c1', 'shell', { command: 'ls' })]), { JCO_DEBUG: '1', BASIS_HOOKS_CACHE_DIR: cache });
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '')).toMatchObject({ tool_call_id: 'c1', decision: 'allow' });
      // The log went somewhere: to stderr.
      expect(result.stderr.length).toBeGreaterThan(0);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});
