import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, hookArgv, preRequest } from './helpers.js';

// stdout is the decision; the exit code is only a liveness signal — non-zero fails whatever was printed.
describe('subprocess: exit status', () => {
  it('exits 1 after printing allow → exit_nonzero', async () => {
    const result = await subprocessTransport({ command: hookArgv('allow-then-exit-1') }).invoke(preRequest(), { hook: 'h' });
    expect(codeOf(result)).toBe('exit_nonzero');
  });

  it('killed by a signal after printing allow → exit_nonzero', async () => {
    const result = await subprocessTransport({ command: hookArgv('killed-by-signal') }).invoke(preRequest(), { hook: 'h' });
    expect(codeOf(result)).toBe('exit_nonzero');
  });

  it('a non-zero exit keeps its stderr in the logs', async () => {
    const result = await subprocessTransport({ command: hookArgv('stderr-then-exit-3') }).invoke(preRequest(), { hook: 'h' });
    expect(codeOf(result)).toBe('exit_nonzero');
    expect(result.logs?.stderr).toBe('something broke\n');
  });

  it('exit 0 with a valid answer decides', async () => {
    const result = await subprocessTransport({ command: ['sh', '-c', 'cat >/dev/null; echo \'{"decision":"deny","reason":"no"}\''] }).invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny', reason: 'no' } });
  });
});
