import { describe, expect, it } from 'vitest';
import { encodeRequest } from '../../../host/codec/index.js';
import { subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, hookArgv, preRequest } from './helpers.js';

const MiB = 1024 * 1024;

describe('subprocess: stdin', () => {
  const large = preRequest({ input: { blob: 'x'.repeat(8 * MiB) } });

  it('a hook that never reads an 8 MB request neither crashes nor stalls the host', async () => {
    const result = await subprocessTransport({ command: hookArgv('ignore-stdin') }).invoke(large, { hook: 'h' });
    expect(codeOf(result)).toBe('ok');
  });

  it('a hook that reads it gets the whole request, newline-terminated', async () => {
    const result = await subprocessTransport({ command: hookArgv('echo-request-size') }).invoke(large, { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'deny', reason: String(Buffer.byteLength(encodeRequest(large))) } });
  });

  it('stdin carries exactly the encoded request', async () => {
    const request = preRequest({ input: 'git push --force' });
    const result = await subprocessTransport({
      command: `req=$(cat); [ "$req" = "$EXPECTED" ] && echo '{"decision":"allow"}' || echo '{"decision":"deny","reason":"mismatch"}'`,
      env: { EXPECTED: encodeRequest(request).trimEnd() },
    }).invoke(request, { hook: 'h' });
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
  });
});
