import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir } from '../../helpers/guests.js';
import { CLI } from '../../helpers/mcp.js';

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
