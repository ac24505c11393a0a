import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { containment } from '../../../host/transports/subprocess/containment.js';
import { eventually, groupMembers, hookArgv, isAlive, preRequest, readPids, tempDir } from './helpers.js';

describe('subprocess: no orphans', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  function pidFile(): string {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    return path.join(dir, 'pids.json');
  }

  it('a grandchild holding stdout open (sleeping 30 s) does not delay the decision, and is killed', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('grandchild-holds-stdout'), env: { BASIS_TEST_PID_FILE: file } });
    const started = performance.now();
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    const elapsed = performance.now() - started;

    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    expect(elapsed).toBeLessThan(1500); // the grandchild would hold the pipe for 30 s
    const { pgid, grandchild } = readPids(file);
    expect(grandchild).not.toBeNull();
    expect(await eventually(() => !isAlive(grandchild ?? 0))).toBe(true);
    expect(groupMembers(pgid)).toEqual([]);
  });

  it('a grandchild that left the process group and holds stdout delays the decision only by a short grace, and dies with the hook where the platform allows', async () => {
    const file = pidFile();
    // It escapes the group on purpose (setsid): no group kill can reach it, so the test kills it, even on failure.
    cleanups.unshift(() => {
      const { grandchild } = readPids(file);
      if (grandchild !== null && isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
    });
    const transport = subprocessTransport({ command: hookArgv('escaped-grandchild-holds-stdout'), env: { BASIS_TEST_PID_FILE: file } });
    const started = performance.now();
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    const elapsed = performance.now() - started;

    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    expect(elapsed).toBeLessThan(1500);
    if ((await containment()).kind === 'pid-namespace') {
      const { grandchild } = readPids(file);
      expect(await eventually(() => !isAlive(grandchild ?? 0))).toBe(true);
    }
  });

  it('a background grandchild is killed when the hook exits', async () => {
    const file = pidFile();
    const transport = subprocessTransport({ command: hookArgv('background-grandchild'), env: { BASIS_TEST_PID_FILE: file } });
    const result = await transport.invoke(preRequest(), { hook: 'h' });

    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    const { pgid, grandchild } = readPids(file);
    expect(grandchild).not.toBeNull();
    expect(await eventually(() => !isAlive(grandchild ?? 0) && groupMembers(pgid).length === 0)).toBe(true);
  });

  it('a shell background job (`sleep &`) is killed too', async () => {
    const file = pidFile();
    const transport = subprocessTransport({
      // Host pids, from the host's /proc: the shell may run in its own PID namespace ($$ would be 2).
      command: `sleep 30 & read hp _ _ _ pg rest < /proc/self/stat; read gc rest < /proc/$hp/task/$hp/children; echo "{\\"hook\\": $hp, \\"grandchild\\": $gc, \\"pgid\\": $pg}" > "$BASIS_TEST_PID_FILE"; echo '{"decision":"allow"}'`,
      env: { BASIS_TEST_PID_FILE: file },
    });
    const started = performance.now();
    const result = await transport.invoke(preRequest(), { hook: 'h' });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    const { pgid, grandchild } = readPids(file);
    expect(await eventually(() => !isAlive(grandchild ?? 0) && groupMembers(pgid).length === 0)).toBe(true);
  });
});
