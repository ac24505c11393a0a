import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, eventually, groupMembers, hookArgv, isAlive, preRequest, pidFiles, waitForPids } from './helpers.js';

describe('subprocess: abort and close', () => {
  const pidFile = pidFiles();

  it('the abort signal kills the hook and the call settles as timeout', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('sleep-forever'), timeout_ms: 60_000, env: { BASIS_TEST_PID_FILE: file } });
    const controller = new AbortController();
    const started = performance.now();
    const pending = transport.invoke(preRequest(), { hook: 'h', signal: controller.signal });
    const { hook, pgid } = await waitForPids(file);
    controller.abort();
    const result = await pending;
    expect(codeOf(result)).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(10_000); // far from the 60 s deadline
    // Eventually: under the PID namespace the call settles when its wrapper exits, the hook dies an instant later.
    expect(await eventually(() => !isAlive(hook))).toBe(true);
    expect(await eventually(() => groupMembers(pgid).length === 0)).toBe(true);
  });

  it('an already-aborted signal does not start the hook', async () => {
    const file = pidFile();
    const controller = new AbortController();
    controller.abort();
    const transport = subprocessTransport({ command: hookArgv('sleep-forever'), env: { BASIS_TEST_PID_FILE: file } });
    const result = await transport.invoke(preRequest(), { hook: 'h', signal: controller.signal });
    expect(codeOf(result)).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 300)); // long enough for a started hook to write its pid
    expect(existsSync(file)).toBe(false);
  });

  it('close() kills a running hook, and later calls are refused', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('sleep-forever'), timeout_ms: 60_000, env: { BASIS_TEST_PID_FILE: file } });
    const pending = transport.invoke(preRequest(), { hook: 'h' });
    const { hook, pgid } = await waitForPids(file);
    await transport.close?.();
    expect(codeOf(await pending)).toBe('timeout');
    // Eventually: under the PID namespace the call settles when its wrapper exits, the hook dies an instant later.
    expect(await eventually(() => !isAlive(hook))).toBe(true);
    expect(codeOf(await transport.invoke(preRequest(), { hook: 'h' }))).toBe('spawn_failed');
    await transport.close?.(); // idempotent
  });
});
