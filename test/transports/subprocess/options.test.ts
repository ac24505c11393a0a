import { describe, expect, it } from 'vitest';
import { isOptionsError } from '../../../host/index.js';
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

  it('refuses, at construction, options no hook could run with (invalid_options, not a hook failure code)', () => {
    const bad: SubprocessOptions[] = [
      { command: ['true'], timeout_ms: 0 },
      { command: ['true'], timeout_ms: 1.5 },
      { command: ['true'], timeout_ms: 2 ** 31 }, // setTimeout would fire after 1 ms
      { command: ['true'], max_output_bytes: 0 },
      { command: ['true'], max_stderr_bytes: -1 },
      { command: ['true'], cwd: '' },
      { command: '' },
      { command: [] },
    ];
    for (const options of bad) {
      const error = constructionError(options);
      expect(isOptionsError(error) && error.code).toBe('invalid_options');
    }
  });

  it('accepts max_stderr_bytes 0 (keep no stderr)', () => {
    expect(constructionError({ command: ['true'], max_stderr_bytes: 0 })).toBeUndefined();
  });
});
