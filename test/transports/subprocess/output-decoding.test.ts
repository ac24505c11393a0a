import { describe, expect, it } from 'vitest';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, hookArgv, preRequest } from './helpers.js';

// On exit 0, stdout goes through the codec's decodeResponse and nothing else.
describe('subprocess: decoding stdout', () => {
  const cases = [
    { mode: 'silent', code: 'empty_output', what: 'prints nothing' },
    { mode: 'banner', code: 'malformed_response', what: 'prints a banner line then JSON' },
    { mode: 'two-objects', code: 'malformed_response', what: 'prints two JSON objects' },
    { mode: 'invalid-utf8', code: 'malformed_response', what: 'prints invalid UTF-8' },
  ] as const;

  for (const { mode, code, what } of cases) {
    it(`${what} → ${code}`, async () => {
      const result = await subprocessTransport({ command: hookArgv(mode) }).invoke(preRequest(), { hook: mode });
      expect(codeOf(result)).toBe(code);
    });
  }

  it('whitespace-only stdout is empty_output, not consent', async () => {
    const result = await subprocessTransport({ command: 'printf "  \\n\\n"' }).invoke(preRequest(), { hook: 'blank' });
    expect(codeOf(result)).toBe('empty_output');
  });

  it('unknown extra fields are ignored', async () => {
    const result = await subprocessTransport({ command: 'echo \'{"decision":"allow","note":"extra"}\'' }).invoke(preRequest(), { hook: 'extra' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
  });
});
