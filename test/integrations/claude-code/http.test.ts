import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir } from '../../helpers/guests.js';
import { CLI } from '../../helpers/mcp.js';
import { runWith, type Ran } from '../../helpers/run.js';

/* `basis-hooks claude-code --http`: Claude Code's `type: "http"` hooks, one server, many events. */

const GUARD = path.join(guestBuildDir('c'), 'guard.wasm');
let dir: string;
let server: ChildProcessByStdio<null, Readable, Readable>;
let url: string;
let stderr = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-cc-http-'));
  await ensureGuestsBuilt('c', [GUARD]);
  const config = path.join(dir, 'hooks.json');
  await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'force-push', event: 'pre_tool_use', tools: ['Bash'], component: GUARD }] }));
  server = spawn(process.execPath, [CLI, 'claude-code', '--config', config, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    server.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    server.once('exit', (code) => reject(new Error(`server exited ${String(code)}: ${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

const pre = (command: string, id = 'toolu_1'): string =>
  JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

async function post(body: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, json: await response.json() };
}

describe('claude-code --http', () => {
  it('listens on loopback by default', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('answers each event with the same JSON a command hook prints ({} for no decision)', async () => {
    expect(await post(pre('ls'))).toEqual({ status: 200, json: {} });
    expect(await post(pre('git push --force origin main'))).toEqual({
      status: 200,
      json: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'force-push to a protected branch (main/master) is not allowed' } },
    });
  });

  it('what it cannot read is answered 200 with a block (a non-2xx answer would let the call proceed)', async () => {
    for (const body of ['garbage', '{}', JSON.stringify({ hook_event_name: 'Stop' })]) {
      const answer = await post(body);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^basis-hooks: /) });
    }
    const get = await fetch(url);
    expect(get.status).toBe(405);
  });

  it('serves concurrent events, each with its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(pre(i % 2 === 0 ? `git push --force origin main # ${i}` : `ls ${i}`, `toolu_${i}`))),
    );
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      if (i % 2 === 0) expect(answer.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      else expect(answer.json).toEqual({});
    });
  });

  it('stops on SIGTERM with exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('claude-code --http --token-file, attacked as in issue 20', () => {
  it('refuses a token file others can read; makes a missing one (0600); the settings carry the token and a guard', async () => {
    const open = path.join(dir, 'open-token');
    await writeFile(open, `${'b'.repeat(64)}\n`, { mode: 0o644 });
    const config = path.join(dir, 'hooks.json');
    const refused = await runCli(['claude-code', '--config', config, '--http', '--port', '0', '--token-file', open]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('chmod 600');
    const made = path.join(dir, 'made-token');
    const printed = await runCli(['claude-code', '--config', config, '--print-settings', '--http', '--port', '4711', '--token-file', made]);
    expect(printed.code).toBe(0);
    expect((await stat(made)).mode & 0o777).toBe(0o600);
    const token = (await readFile(made, 'utf8')).trim();
    const group = (JSON.parse(printed.stdout) as { hooks: { PreToolUse: Array<{ hooks: Array<Record<string, unknown>> }> } }).hooks.PreToolUse[0];
    expect(group?.hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:4711/', headers: { Authorization: `Bearer ${token}` } });
    expect(group?.hooks[1]).toMatchObject({ type: 'command', command: expect.stringContaining('/healthz') as unknown });
    expect(printed.stderr).toContain('proceed when an http hook\'s server is down');
  });

  it('three 64 MiB POSTs: each refused at the cap while streaming, the server never holds them (peak RSS), and the force-push is answered', async () => {
    const tokenFile = path.join(dir, 'token');
    const config = path.join(dir, 'hooks.json');
    const child = spawn(process.execPath, [CLI, 'claude-code', '--config', config, '--http', '--port', '0', '--token-file', tokenFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    const at = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(err);
        if (found?.[1] !== undefined) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`server exited ${String(code)}: ${err}`)));
    });
    try {
      const token = (await readFile(tokenFile, 'utf8')).trim();
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const big = Array.from({ length: 3 }, () => fetchStream(at, 64 * 1024 * 1024, auth));
      const answer = await fetch(at, { method: 'POST', headers: auth, body: pre('git push --force origin main', 'toolu_real') });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      for (const result of await Promise.all(big)) expect(result).toMatchObject({ decision: 'block', reason: expect.stringContaining('cap') as unknown });
      // Peak resident memory of the server: what it held at most. 3 × 64 MiB buffered would be > 192 MiB.
      const status = await readFile(`/proc/${String(child.pid)}/status`, 'utf8');
      const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 'NaN');
      expect(peakKb).toBeLessThan(160 * 1024);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});

/** POST `total` bytes as a stream (no Content-Length) and return the JSON answer. */
async function fetchStream(url: string, total: number, headers: Record<string, string>): Promise<unknown> {
  let sent = 0;
  const chunk = new Uint8Array(256 * 1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) controller.close();
      else {
        sent += chunk.length;
        controller.enqueue(chunk);
      }
    },
  });
  try {
    const response = await fetch(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    return await response.json();
  } catch (error) {
    return { error: String(error) };
  }
}

function runCli(args: readonly string[]): Promise<Ran> {
  return runWith(process.execPath, [CLI, ...args]);
}
