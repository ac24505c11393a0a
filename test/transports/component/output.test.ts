import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../../host/transports/component/index.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../../helpers/guests.js';
import { CONTEXT, postRequest, preRequest } from './requests.js';

describe('component output: JSON text in, JSON text out, capped', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });
  function open(behaviour: string, options: { max_output_bytes?: number } = {}): ComponentTransport {
    const t = componentTransport({ path: join(WAT_CONFORMANCE_DIR, `${behaviour}.wasm`), cache_dir: TEST_CACHE_DIR, ...options });
    transports.push(t);
    return t;
  }

  it('an answer over the default 1 MiB cap → output_too_large (the guest returns a 2 MiB reason)', async () => {
    expect(await open('oversized').invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'output_too_large' } });
  });

  it('the cap counts the rewritten input and the reason, to the byte', async () => {
    const input = { command: 'x'.repeat(100) };
    const size = `{"wrapped":${JSON.stringify(input)}}`.length + 'wrapped input'.length;
    expect(await open('modify-wrap', { max_output_bytes: size }).invoke(preRequest(input), CONTEXT)).toMatchObject({ ok: true });
    expect(await open('modify-wrap', { max_output_bytes: size - 1 }).invoke(preRequest(input), CONTEXT)).toMatchObject({
      ok: false,
      failure: { code: 'output_too_large' },
    });
  });

  it('modify with input that is not JSON text → malformed_response; an empty deny reason too', async () => {
    expect(await open('malformed').invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    expect(await open('empty-deny-reason').invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  });

  it('a raw-string input arrives as a JSON string literal; output/is_error exist only after the call', async () => {
    const probe = open('probe');
    expect(await probe.invoke(preRequest('git push {origin'), CONTEXT)).toEqual({
      ok: true,
      response: { decision: 'modify', input: { hook_schema: 1, event: 'pre_tool_use', has_output: false, has_is_error: false, input: 'git push {origin' } },
    });
    expect(await probe.invoke(postRequest({ a: [1, 'ü', null] }, true), CONTEXT)).toEqual({
      ok: true,
      response: {
        decision: 'replace',
        output: { hook_schema: 1, event: 'post_tool_use', has_output: true, has_is_error: true, input: { command: 'ls' }, output: { a: [1, 'ü', null] }, is_error: true },
      },
    });
  });
});
