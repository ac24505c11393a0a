import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';
import { MARGIN_MS } from './runaways.js';

describe('a runaway on the caller\'s thread (metered) holds it no longer than its deadline', () => {
  const transports: ComponentTransport[] = [];
  let dir: string;
  let loop: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'basis-signals-'));
    loop = await hostileGuest('loop-br');
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('calls that overlap a runaway are answered within its deadline + the margin (plus their own time)', async () => {
    const timeoutMs = 100;
    const t = componentTransport({ path: loop, cache_dir: TEST_CACHE_DIR, isolation: 'metered', timeout_ms: timeoutMs });
    transports.push(t);
    await t.load();
    const started = performance.now();
    const finished: number[] = [];
    const quick = Array.from({ length: 20 }, () => Promise.resolve(t.invoke(preRequest({}, 'ok'), CONTEXT)).then((r) => (finished.push(performance.now() - started), r)));
    const runaway = t.invoke(preRequest({}, 'run'), CONTEXT);
    const more = Array.from({ length: 20 }, () => Promise.resolve(t.invoke(preRequest({}, 'ok'), CONTEXT)).then((r) => (finished.push(performance.now() - started), r)));
    expect(await runaway).toMatchObject({ ok: false, failure: { code: 'timeout' } });
    for (const r of await Promise.all([...quick, ...more])) expect(r).toEqual({ ok: true, response: { decision: 'allow' } });
    expect(Math.max(...finished)).toBeLessThan(timeoutMs + MARGIN_MS);
  });

  it('basis-hooks run honours SIGTERM within the running call\'s deadline: it stops and exits 130', async () => {
    const timeoutMs = 1000;
    const config = join(dir, 'hooks.json');
    await writeFile(
      config,
      JSON.stringify({ hook_schema: 1, hooks: [{ name: 'runaway', event: 'pre_tool_use', component: loop, timeout_ms: timeoutMs }] }),
    );
    const calls = Array.from({ length: 10 }, (_, i) => JSON.stringify({ event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: `c${i}`, tool_name: 'run', input: {} }));
    // The built CLI, as a user runs it (npm test builds it first).
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'run', '--config', config], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, BASIS_HOOKS_CACHE_DIR: TEST_CACHE_DIR },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The signal arrives while the second runaway call holds the thread.
    const firstLine = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve();
      });
    });
    child.stdin.end(`${calls.join('\n')}\n`);
    try {
      await firstLine;
      const signalled = performance.now();
      child.kill('SIGTERM');
      expect(await closed).toBe(130);
      // The call in progress ends at its deadline; then the runner closes and the process exits.
      expect(performance.now() - signalled).toBeLessThan(timeoutMs + MARGIN_MS + 500);
      expect(stderr).toContain('interrupted');
      expect(stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});
