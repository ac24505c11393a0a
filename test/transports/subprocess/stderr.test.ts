import { describe, expect, it } from 'vitest';
import { SUBPROCESS_DEFAULTS, subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, hookArgv, preRequest } from './helpers.js';

const MiB = 1024 * 1024;

describe('subprocess: stderr', () => {
  it('appears in the logs of a successful call', async () => {
    const result = await subprocessTransport({ command: hookArgv('stderr-then-allow') }).invoke(preRequest(), { hook: 'h' });
    expect(codeOf(result)).toBe('ok');
    expect(result.logs?.stderr).toBe('hello from stderr\n');
  });

  it('appears in the logs of a failed call', async () => {
    const result = await subprocessTransport({ command: 'echo "not json"; echo "why it failed" >&2' }).invoke(preRequest(), { hook: 'h' });
    expect(codeOf(result)).toBe('malformed_response');
    expect(result.logs?.stderr).toBe('why it failed\n');
  });

  it('a hook flooding stderr still decides (both pipes are drained), and the kept stderr is capped and marked', async () => {
    const cap = 4096;
    const result = await subprocessTransport({
      command: hookArgv('flood-stderr'),
      timeout_ms: 20_000,
      max_stderr_bytes: cap,
      env: { BASIS_TEST_FLOOD_BYTES: String(50 * MiB) },
    }).invoke(preRequest(), { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    const stderr = result.logs?.stderr ?? '';
    expect(stderr.startsWith('x'.repeat(cap))).toBe(true);
    expect(stderr.length).toBeLessThan(cap + 100);
    expect(stderr).toContain('truncated');
  });

  it('defaults to a 64 KiB stderr cap', () => {
    expect(SUBPROCESS_DEFAULTS.max_stderr_bytes).toBe(64 * 1024);
  });
});
