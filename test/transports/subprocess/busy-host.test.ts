import { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, preRequest, tempDir } from './helpers.js';

/*
 * A hook that printed its answer and exited has answered, however busy the host is. Node reaps every
 * exited child when any SIGCHLD arrives, so the host can see a hook's exit before its event loop has
 * polled the pipe the answer is already in; if the loop is then held (a burst of spawns, a long
 * callback) past the exit grace period, the grace timer runs before the poll. Here the host's loop
 * is held 100 ms after every exit it sees, while many hooks print and exit at the same moment.
 */

const emit = ChildProcess.prototype.emit;
afterEach(() => {
  ChildProcess.prototype.emit = emit;
});

function stallAfterExits(ms: number): void {
  ChildProcess.prototype.emit = function (this: ChildProcess, event: string | symbol, ...args: unknown[]): boolean {
    const handled = Reflect.apply(emit, this, [event, ...args]) as boolean;
    if (event === 'exit') {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // the host's loop held, as by a burst of synchronous spawns
      }
    }
    return handled;
  } as typeof emit;
}

describe('subprocess: an answer printed before exit counts, however busy the host', () => {
  it('twice, 40 hooks print and exit together while the host stalls after every exit it sees: every answer is read', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const failures: string[] = [];
      for (const round of [1, 2]) {
        const go = path.join(dir, `go-${round}`);
        const hook = subprocessTransport({ command: ['sh', '-c', `cat >/dev/null; while [ ! -e '${go}' ]; do sleep 0.005; done; echo '{"decision":"allow"}'`], timeout_ms: 60_000 });
        const calls = Array.from({ length: 40 }, (_, i) => hook.invoke(preRequest({ tool_call_id: `c${i}` }), { hook: 'h' }));
        await new Promise((resolve) => setTimeout(resolve, 500));
        stallAfterExits(100);
        writeFileSync(go, '');
        failures.push(...(await Promise.all(calls)).map(codeOf).filter((code) => code !== 'ok'));
        ChildProcess.prototype.emit = emit;
      }
      expect(failures).toEqual([]);
    } finally {
      cleanup();
    }
  }, 60_000);
});
