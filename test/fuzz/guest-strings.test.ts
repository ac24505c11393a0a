/**
 * Fuzzing what a guest returns: a WAT guest (test/fixtures/wat/echo-bytes.wat) answers with bytes
 * taken from its request, unchanged — random bytes and mutations of JSON, valid UTF-8 or not — as a
 * deny reason, a modify input, a replace output or an err message. Every answer is a typed result
 * that the contract accepts or a typed failure, in both isolations, and the hook (and the host) keep
 * working.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookRequest, type InvokeResult } from '../../host/index.js';
import { checkResponse } from '../../host/codec/index.js';
import { parseJsonText } from '../../host/codec/json-text.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { fuzzBytes, isUtf8, JSON_SEEDS } from '../helpers/fuzz.js';
import { watFixtureComponent } from '../helpers/wat-component.js';

function request(mode: number, payload: Uint8Array): HookRequest {
  const toolName = Buffer.from([mode, ...payload]).toString('hex');
  return { hook_schema: 1, event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: toolName, input: {} };
}

/** What the contract makes of `payload` answered in `mode`, when it is valid UTF-8. */
function expectTyped(result: InvokeResult, mode: number, payload: Uint8Array): void {
  if (result.ok) expect(checkResponse(result.response).ok).toBe(true);
  else expect(['malformed_response', 'guest_error', 'output_too_large']).toContain(result.failure.code);
  const kind = mode & 0x0f;
  // A string that is not UTF-8 is not an answer, whatever it was to be: malformed, as from a subprocess.
  if (kind <= 3 && !isUtf8(payload)) {
    expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    return;
  }
  if (kind === 3) {
    expect(result).toMatchObject({ ok: false, failure: { code: 'guest_error' } });
    return;
  }
  if (kind > 3) {
    expect(result).toMatchObject({ ok: true, response: { decision: 'allow' } });
    return;
  }
  const text = new TextDecoder().decode(payload);
  if (kind === 0) {
    if (text.trim() === '') expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    else expect(result).toEqual({ ok: true, response: { decision: 'deny', reason: text } });
    return;
  }
  const parsed = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth, rejectDuplicateKeys: true });
  if (!parsed.ok) expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  else expect(result).toMatchObject({ ok: true, response: kind === 1 ? { decision: 'modify', input: parsed.value } : { decision: 'replace', output: parsed.value } });
}

const modes = fc.oneof(fc.constantFrom(0, 1, 2, 3, 4, 0x11, 0x12, 0x32), fc.integer({ min: 0, max: 255 }));

describe.each([
  ['metered', 400],
  ['worker', 150],
] as const)('fuzz: a guest\'s returned strings (%s)', (isolation, runs) => {
  let transport: ComponentTransport;
  beforeAll(async () => {
    transport = componentTransport({ path: await watFixtureComponent('echo-bytes'), isolation, cache_dir: TEST_CACHE_DIR });
    await transport.load();
  });
  afterAll(async () => transport.close());

  it(`random and mutated bytes → a valid answer or a typed failure (${runs} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(modes, fuzzBytes(JSON_SEEDS), async (mode, payload) => {
        expectTyped(await transport.invoke(request(mode, payload), { hook: 'echo' }), mode, payload);
      }),
      { numRuns: runs },
    );
    // The instance survived all of it.
    expect(await transport.invoke(request(0, new TextEncoder().encode('still here')), { hook: 'echo' })).toEqual({
      ok: true,
      response: { decision: 'deny', reason: 'still here' },
    });
  });

  it('beyond the limits: an answer nested too deep, a key named twice, more than max_output_bytes', async () => {
    const deep = new TextEncoder().encode(`${'['.repeat(JSON_LIMITS.max_depth + 1)}${']'.repeat(JSON_LIMITS.max_depth + 1)}`);
    expect(await transport.invoke(request(1, deep), { hook: 'echo' })).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    const dup = new TextEncoder().encode('{"command":"rm -rf /","command":"ls"}');
    expect(await transport.invoke(request(2, dup), { hook: 'echo' })).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    const small = componentTransport({ path: await watFixtureComponent('echo-bytes'), isolation, cache_dir: TEST_CACHE_DIR, max_output_bytes: 64 });
    try {
      expect(await small.invoke(request(0, new Uint8Array(65).fill(0x61)), { hook: 'echo' })).toMatchObject({ ok: false, failure: { code: 'output_too_large' } });
    } finally {
      await small.close();
    }
  });
});
