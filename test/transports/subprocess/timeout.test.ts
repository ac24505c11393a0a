import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, eventually, groupMembers, hookArgv, isAlive, preRequest, readPids, pidFiles } from './helpers.js';

const TIMEOUT_MS = 500;
const MARGIN_MS = 1500; // generous: the machine is shared; the point is "promptly", not a benchmark

describe('subprocess: timeout', () => {
  const pidFile = pidFiles();

  it('a hook that sleeps forever times out promptly and its process group is gone', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('sleep-forever'), timeout_ms: TIMEOUT_MS, env: { BASIS_TEST_PID_FILE: file } });
    const started = performance.now();
    const result = await transport.invoke(preRequest(), { hook: 'sleeper' });
    const elapsed = performance.now() - started;

    expect(codeOf(result)).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    const { hook, pgid } = readPids(file);
    // Eventually: under the PID namespace the call settles when its wrapper exits, the hook dies an instant later.
    expect(await eventually(() => !isAlive(hook))).toBe(true);
    expect(await eventually(() => groupMembers(pgid).length === 0)).toBe(true);
  });

  it('escalates to SIGKILL when the hook and its grandchild ignore SIGTERM', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('ignore-sigterm'), timeout_ms: TIMEOUT_MS, env: { BASIS_TEST_PID_FILE: file } });
    const started = performance.now();
    const result = await transport.invoke(preRequest(), { hook: 'stubborn' });
    const elapsed = performance.now() - started;

    expect(codeOf(result)).toBe('timeout');
    expect(elapsed).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    const { hook, pgid, grandchild } = readPids(file);
    expect(grandchild).not.toBeNull();
    // Eventually: under the PID namespace the call settles when its wrapper exits, the hook dies an instant later.
    expect(await eventually(() => !isAlive(hook))).toBe(true);
    expect(await eventually(() => !isAlive(grandchild ?? 0) && groupMembers(pgid).length === 0)).toBe(true);
  });

  it('a hook that answers in time is not affected by its deadline', async () => {
    const transport = subprocessTransport({ command: hookArgv('stderr-then-allow'), timeout_ms: 5000 });
    expect(codeOf(await transport.invoke(preRequest(), { hook: 'quick' }))).toBe('ok');
  });
});
