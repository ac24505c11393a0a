/**
 * The last two parts of `wasi:cli` a guest can reach: stdin, which the sandbox gives as a stream at
 * its end (never the host's stdin), and exit, which fails the call instead of ending the host's
 * process — whatever status the guest exits with, since it never answered. The instance that exited
 * is discarded and the next call is served by a fresh one. Both isolations.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { ROOT, TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: stdin and exit`, () => {
    let transport: ComponentTransport;
    beforeAll(async () => {
      await ensureWatGuestsBuilt();
      transport = componentTransport({ path: watGuest('stdin-exit'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1 });
      await transport.load();
    });
    afterAll(async () => {
      await transport.close();
    });

    it('reads stdin as a closed stream: nothing of the host', async () => {
      expect(await transport.invoke(preRequest({}, 'read'), CONTEXT)).toEqual({ ok: true, response: { decision: 'deny', reason: 'stdin: closed' } });
    });

    for (const tool of ['exit', 'exit-ok']) {
      it(`a guest that calls wasi:cli/exit (${tool}) fails the call as a trap, and the next call is served`, async () => {
        const result = await transport.invoke(preRequest({}, tool), CONTEXT);
        expect(result).toMatchObject({ ok: false, failure: { code: 'trap' } });
        if (!result.ok) expect(result.failure.message).toContain('exited instead of answering');
        expect(await transport.invoke(preRequest({}, 'read'), CONTEXT)).toEqual({ ok: true, response: { decision: 'deny', reason: 'stdin: closed' } });
      });
    }
  });
}

describe("the host's own stdin", () => {
  it('never reaches a guest: with bytes waiting on the CLI\'s stdin, the guest still reads a closed stream', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'basis-stdin-'));
    try {
      const config = join(dir, 'hooks.json');
      await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'stdin', event: 'pre_tool_use', component: watGuest('stdin-exit') }] }));
      const calls = join(dir, 'calls.jsonl');
      await writeFile(calls, `${JSON.stringify({ event: 'pre_tool_use', workspace: '/repo', agent_id: 'a', tool_call_id: 'c1', tool_name: 'read', input: {} })}\n`);
      // --calls: the CLI leaves its stdin alone, so the bytes written to it stay there to be stolen.
      const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'run', '--config', config, '--calls', calls], {
        env: { ...process.env, BASIS_HOOKS_CACHE_DIR: TEST_CACHE_DIR },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.on('error', () => {});
      child.stdin.write('a secret only the host may read\n');
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const outcome = JSON.parse(stdout) as { decision: string; trail: Array<{ decision: string; reason?: string }> };
      expect(outcome.decision).toBe('deny');
      expect(outcome.trail).toMatchObject([{ decision: 'deny', reason: 'stdin: closed' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
