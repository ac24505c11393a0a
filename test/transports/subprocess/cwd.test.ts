import { realpathSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { hookArgv, preRequest, tempDir } from './helpers.js';

describe('subprocess: working directory', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  function dir(): string {
    const made = tempDir();
    cleanups.push(made.cleanup);
    return realpathSync(made.dir);
  }

  it('is the request workspace when it exists as a directory', async () => {
    const workspace = dir();
    const result = await subprocessTransport({ command: hookArgv('report') }).invoke(preRequest({ workspace }), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { input: { cwd: workspace } } });
  });

  it('is process.cwd() when the workspace does not exist', async () => {
    const result = await subprocessTransport({ command: hookArgv('report') }).invoke(preRequest({ workspace: '/nonexistent/ws' }), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { input: { cwd: realpathSync(process.cwd()) } } });
  });

  it('is the cwd option when given, whatever the workspace', async () => {
    const workspace = dir();
    const cwd = dir();
    const result = await subprocessTransport({ command: hookArgv('report'), cwd }).invoke(preRequest({ workspace }), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { input: { cwd } } });
  });
});
