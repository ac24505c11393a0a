import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, Outcome } from '../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { ROOT, TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

const GUEST_STDOUT = "hello from the guest's stdout\n";
const GUEST_STDERR = "hello from the guest's stderr\n";

describe('component stdout/stderr: captured for the trail, never the host\'s', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  it('returns what the guest wrote as logs on the result', async () => {
    const transport = componentTransport({ path: watGuest('stdio'), cache_dir: TEST_CACHE_DIR });
    transports.push(transport);
    const result = await transport.invoke(preRequest(), CONTEXT);
    expect(result).toEqual({ ok: true, response: { decision: 'allow' }, logs: { stdout: GUEST_STDOUT, stderr: GUEST_STDERR } });
    // Per call: the next call's logs are its own, not an accumulation.
    expect((await transport.invoke(preRequest(), CONTEXT)).logs).toEqual({ stdout: GUEST_STDOUT, stderr: GUEST_STDERR });
  });

  it('puts the logs in the trail', async () => {
    const transport = componentTransport({ path: watGuest('stdio'), cache_dir: TEST_CACHE_DIR });
    transports.push(transport);
    const runner = new HookRunner([{ name: 'noisy', event: 'pre_tool_use', transport }]);
    const outcome = await runner.run({ event: 'pre_tool_use', workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: 'ls' });
    expect(outcome.trail).toEqual([expect.objectContaining({ hook: 'noisy', decision: 'allow', stdout: GUEST_STDOUT, stderr: GUEST_STDERR })]);
  });

  it('caps each stream at max_log_bytes and says how much it dropped', async () => {
    const transport = componentTransport({ path: watGuest('stdio'), cache_dir: TEST_CACHE_DIR, max_log_bytes: 1024 });
    transports.push(transport);
    // Tool name "flood": the guest writes 256 KiB to stdout first.
    const result = await transport.invoke(preRequest({}, 'flood'), CONTEXT);
    expect(result.ok).toBe(true);
    const stdout = result.logs?.stdout ?? '';
    expect(stdout.startsWith('.'.repeat(1024))).toBe(true);
    expect(stdout.length).toBeLessThan(1024 + 200);
    expect(stdout).toContain(`${256 * 1024 + GUEST_STDOUT.length - 1024} more bytes dropped`);
    expect(result.logs?.stderr).toBe(GUEST_STDERR);
  });

  it("never reaches the host process's stdout: a chain in a child process prints only its outcome", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/engine/stdio-chain.ts'), watGuest('stdio'), TEST_CACHE_DIR],
      { cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1' } },
    );
    const lines = stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const outcome = Outcome.parse(JSON.parse(lines[0] ?? ''));
    expect(outcome).toMatchObject({ decision: 'allow', trail: [{ hook: 'noisy', decision: 'allow', stdout: GUEST_STDOUT, stderr: GUEST_STDERR }] });
    // The guest's lines exist only inside the JSON (escaped), on neither of the host's streams.
    expect(stdout).not.toContain(GUEST_STDOUT);
    expect(stderr).not.toContain('hello from the guest');
  });
});
