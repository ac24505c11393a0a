/**
 * Subprocess hooks leave nothing behind where the platform allows it: on Linux every hook runs in its
 * own PID namespace, so even a descendant that left the process group (setsid, a daemon) dies with
 * the hook. Where the namespace is not available the process group is all there is (docs/sandbox-and-limits.md).
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { containment } from '../../../host/transports/subprocess/containment.js';
import { eventually, hookArgv, isAlive, pidFiles, preRequest, readPids, waitForPids } from './helpers.js';

const how = await containment();
const escaped: number[] = [];
afterEach(() => {
  // Whatever happens to the assertions, no test leaves a 30 s sleeper behind.
  for (const pid of escaped.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

describe('subprocess: containment', () => {
  const pidFile = pidFiles();

  it.runIf(process.platform === 'linux')('on Linux the PID namespace is used whenever unshare can make one here', () => {
    const direct = [
      ['--pid', '--fork', '--kill-child', 'true'],
      ['--user', '--map-current-user', '--pid', '--fork', '--kill-child', 'true'],
    ].some((args) => spawnSync('unshare', args, { stdio: 'ignore' }).status === 0);
    expect(how.kind).toBe(direct && process.env.BASIS_HOOKS_SUBPROCESS_CONTAINMENT !== 'process-group' ? 'pid-namespace' : 'process-group');
  });

  it.skipIf(how.kind !== 'pid-namespace')('a daemon that left the process group (setsid) dies when the hook exits', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('escaped-daemon'), env: { BASIS_TEST_PID_FILE: file } });
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    const { grandchild, pgid } = readPids(file);
    expect(grandchild).not.toBeNull();
    escaped.push(grandchild ?? 0);
    // It really had left the group: a group kill alone would have missed it.
    expect(pgid).not.toBe(0);
    expect(await eventually(() => !isAlive(grandchild ?? 0))).toBe(true);
  });

  it.skipIf(how.kind !== 'pid-namespace')('a hook stopped by close() takes its escaped descendants with it', async () => {
    const file = pidFile();
    const transport = subprocessTransport({
      // The daemon is started, then the hook hangs: close() must reach both.
      command: ['/bin/sh', '-c', `"${process.execPath}" "$@" & wait`, 'sh', ...hookArgv('escaped-daemon').slice(1)],
      env: { BASIS_TEST_PID_FILE: file },
    });
    const pending = transport.invoke(preRequest(), { hook: 'h' });
    const { grandchild } = await waitForPids(file);
    escaped.push(grandchild ?? 0);
    await transport.close?.();
    await pending;
    expect(await eventually(() => !isAlive(grandchild ?? 0))).toBe(true);
  });

  it('the hook still gets its request on stdin and its exit status still counts', async () => {
    const echo = subprocessTransport({ command: hookArgv('echo-request-size') });
    const result = await echo.invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny' } });
    expect(Number((result as { response: { reason: string } }).response.reason)).toBeGreaterThan(50);
    const failing = subprocessTransport({ command: 'echo \'{"decision":"allow"}\'; exit 3' });
    expect(await failing.invoke(preRequest(), { hook: 'h' })).toMatchObject({ ok: false, failure: { code: 'exit_nonzero' } });
  });
});
