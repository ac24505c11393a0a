import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CLI, jsonl, pre, writeConfig } from './cli.js';
import { tempDir } from '../helpers/temp.js';
import { eventually } from '../transports/subprocess/helpers.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('basis-hooks run, interrupted', () => {
  it('on SIGINT stops the running hook (in its own process group), runs no more calls and exits 130', async () => {
    const dir = await tempDir();
    const pidFile = path.join(dir, 'hook.pid');
    const config = await writeConfig(dir, [
      // exec: the hook's pid is the shell's, written before it starts its long sleep. Its host pid, from
      // the host's /proc: the hook may run in its own PID namespace, where $$ is 2.
      { name: 'slow', event: 'pre_tool_use', command: 'read pid rest < /proc/self/stat; echo $pid > "$BASIS_HOOKS_CONFIG_DIR/hook.pid"; exec sleep 60', timeout_ms: 120_000 },
    ]);
    const child = spawn(process.execPath, [CLI, 'run', '--config', config], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(jsonl([pre('c1', 'shell', {}), pre('c2', 'shell', {})]));

    let hookPid: number | undefined;
    try {
      while (hookPid === undefined) {
        const text = await readFile(pidFile, 'utf8').catch(() => '');
        if (text.endsWith('\n')) hookPid = Number(text.trim());
        else await sleep(50);
      }
      expect(alive(hookPid)).toBe(true);
      child.kill('SIGINT');
      expect(await closed).toBe(130);
      expect(stdout).toBe('');
      expect(stderr).toContain('interrupted');
      expect(await eventually(() => !alive(hookPid ?? 0))).toBe(true);
    } finally {
      // Leave nothing running if an expectation failed.
      if (hookPid !== undefined && alive(hookPid)) process.kill(hookPid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
