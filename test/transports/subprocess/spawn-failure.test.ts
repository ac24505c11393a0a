import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHookError, isOptionsError, type HookError } from '../../../host/index.js';
import { subprocessTransport, type SubprocessOptions } from '../../../host/transports/subprocess/index.js';
import { codeOf, hookArgv, preRequest, tempDir } from './helpers.js';

async function checkError(options: SubprocessOptions): Promise<HookError> {
  const error: unknown = await subprocessTransport(options).check?.().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHookError(error)) throw new Error(`expected check() to reject with a HookError, got ${String(error)}`);
  return error;
}

describe('subprocess: cannot be started', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  const unstartable: ReadonlyArray<{ what: string; options: () => SubprocessOptions }> = [
    { what: 'argv[0] not on PATH', options: () => ({ command: ['basis-hooks-no-such-command-3f9a'] }) },
    { what: 'an absolute path that does not exist', options: () => ({ command: ['/nonexistent/basis-hooks/hook'] }) },
    {
      what: 'a file that is not executable',
      options: () => {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        const file = path.join(dir, 'hook.sh');
        writeFileSync(file, '#!/bin/sh\necho \'{"decision":"allow"}\'\n');
        chmodSync(file, 0o644);
        return { command: [file] };
      },
    },
    { what: 'a directory', options: () => ({ command: ['/tmp'] }) },
    { what: 'a cwd that does not exist', options: () => ({ command: hookArgv('ignore-stdin'), cwd: '/nonexistent/basis-hooks-cwd' }) },
    { what: 'argv[0] missing from the PATH the hook is given', options: () => ({ command: ['node'], env: { PATH: '/nonexistent/bin' } }) },
  ];

  for (const { what, options } of unstartable) {
    it(`${what}: invoke resolves spawn_failed, check() rejects spawn_failed`, async () => {
      const opts = options();
      const result = await subprocessTransport(opts).invoke(preRequest(), { hook: 'h' });
      expect(codeOf(result)).toBe('spawn_failed');
      expect((await checkError(opts)).code).toBe('spawn_failed');
    });
  }

  it('check() resolves for startable commands, in both forms', async () => {
    await expect(subprocessTransport({ command: hookArgv('ignore-stdin') }).check?.()).resolves.toBeUndefined();
    await expect(subprocessTransport({ command: ['sh', '-c', 'true'] }).check?.()).resolves.toBeUndefined();
    await expect(subprocessTransport({ command: 'echo hi' }).check?.()).resolves.toBeUndefined();
  });

  it('check() names the command', async () => {
    const error = await checkError({ command: ['basis-hooks-no-such-command-3f9a', '--flag'] });
    expect(error.message).toContain('basis-hooks-no-such-command-3f9a');
  });

  it('an empty command is refused at construction (invalid_options: the caller\'s mistake, not a hook failure)', () => {
    for (const command of ['', '   ', []] as const) {
      let thrown: unknown;
      try {
        subprocessTransport({ command });
      } catch (error) {
        thrown = error;
      }
      expect(isOptionsError(thrown) && thrown.code).toBe('invalid_options');
    }
  });
});
