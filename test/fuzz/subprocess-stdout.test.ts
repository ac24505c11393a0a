/**
 * Fuzzing what a subprocess hook prints: random bytes and mutations of answers, through the decoder
 * (thousands) and through real hook processes (`cat` of the bytes). Every result is an answer the
 * contract accepts or a typed failure, and the host stays up for the next call.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subprocessTransport, type HookRequest, type InvokeResult } from '../../host/index.js';
import { checkResponse, decodeResponse } from '../../host/codec/index.js';
import { parseJsonText } from '../../host/codec/json-text.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';
import { fuzzBytes, isUtf8, JSON_SEEDS } from '../helpers/fuzz.js';

const REQUEST: HookRequest = { hook_schema: 1, event: 'pre_tool_use', workspace: '/nonexistent', agent_id: 'a', tool_call_id: 'c', tool_name: 't', input: {} };

/** What the bytes must come to: the codec's rules, restated from JSON.parse and the scanner. */
function expectTyped(result: InvokeResult | ReturnType<typeof decodeResponse>, bytes: Uint8Array): void {
  const ok = result.ok;
  if (!isUtf8(bytes)) {
    expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    return;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') {
    expect(result).toMatchObject({ ok: false, failure: { code: 'empty_output' } });
    return;
  }
  const parsed = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth + 1, rejectDuplicateKeys: true });
  if (!parsed.ok) {
    expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    return;
  }
  if (ok) {
    const response = 'response' in result ? result.response : result.value;
    expect(checkResponse(response).ok).toBe(true);
    expect((parsed.value as { decision?: unknown }).decision).toBe(response.decision);
  } else {
    expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  }
}

describe('fuzz: subprocess stdout', () => {
  it('the decoder, on 5,000 random and mutated outputs', () => {
    fc.assert(
      fc.property(fuzzBytes(JSON_SEEDS, { maxLength: 512 }), (bytes) => expectTyped(decodeResponse(bytes), bytes)),
      { numRuns: 5000 },
    );
  });

  describe('through real hook processes', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'basis-fuzz-stdout-'));
    });
    afterAll(async () => rm(dir, { recursive: true, force: true }));

    it('40 hooks printing random and mutated bytes; then a good hook still answers', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fuzzBytes(JSON_SEEDS, { maxLength: 512 }), async (bytes) => {
          const file = join(dir, `out-${n++}`);
          await writeFile(file, bytes);
          const result = await subprocessTransport({ command: ['/bin/cat', file], timeout_ms: 30_000 }).invoke(REQUEST, { hook: 'fuzz' });
          expectTyped(result, bytes);
        }),
        { numRuns: 40 },
      );
      const good = subprocessTransport({ command: ['/bin/sh', '-c', 'cat >/dev/null; echo \'{"decision":"allow"}\''] });
      expect(await good.invoke(REQUEST, { hook: 'good' })).toMatchObject({ ok: true, response: { decision: 'allow' } });
    }, 180_000);
  });
});
