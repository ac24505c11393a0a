import { describe, expect, it } from 'vitest';
import { isHookError } from '../../../host/index.js';
import { SUBPROCESS_DEFAULTS, subprocessTransport, type SubprocessOptions } from '../../../host/transports/subprocess/index.js';

function constructionError(options: SubprocessOptions): unknown {
  try {
    subprocessTransport(options);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('subprocess: options', () => {
  it('has the documented defaults', () => {
    expect(SUBPROCESS_DEFAULTS).toEqual({ timeout_ms: 10_000, max_output_bytes: 1024 * 1024, max_stderr_bytes: 64 * 1024 });
  });

  it('refuses, at construction, limits no hook could run with (spawn_failed)', () => {
    const bad: SubprocessOptions[] = [
      { command: ['true'], timeout_ms: 0 },
      { command: ['true'], timeout_ms: 1.5 },
      { command: ['true'], timeout_ms: 2 ** 31 }, // setTimeout would fire after 1 ms
      { command: ['true'], max_output_bytes: 0 },
      { command: ['true'], max_stderr_bytes: -1 },
      { command: ['true'], cwd: '' },
    ];
    for (const options of bad) {
      const error = constructionError(options);
      expect(isHookError(error) && error.code).toBe('spawn_failed');
    }
  });

  it('accepts max_stderr_bytes 0 (keep no stderr)', () => {
    expect(constructionError({ command: ['true'], max_stderr_bytes: 0 })).toBeUndefined();
  });
});
