import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { hookArgv, preRequest } from './helpers.js';

describe('subprocess: environment', () => {
  it('the env option is added to the inherited environment', async () => {
    const result = await subprocessTransport({ command: hookArgv('report'), env: { BASIS_TEST_VALUE: 'from options' } }).invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { input: { value: 'from options', has_path: true } } });
  });

  it('without the option the variable is absent', async () => {
    const result = await subprocessTransport({ command: hookArgv('report') }).invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { input: { value: null } } });
  });
});
