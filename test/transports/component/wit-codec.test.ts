import { describe, expect, it } from 'vitest';
import { fromWitDecision, toWitRequest, witDecisionSize, type WitDecision } from '../../../host/codec/wit.js';
import { postRequest, preRequest } from './requests.js';

describe('codec: request → WIT record', () => {
  it('before the call: input as JSON text, output and is-error absent (none), never null', () => {
    const record = toWitRequest(preRequest({ command: 'ls' }));
    expect(record).toEqual({
      hookSchema: 1,
      event: 'pre-tool-use',
      workspace: '/ws',
      agentId: 'agent-1',
      toolCallId: 'call-1',
      toolName: 'shell',
      input: '{"command":"ls"}',
    });
    expect('output' in record).toBe(false);
    expect('isError' in record).toBe(false);
  });

  it('a raw-string input is a JSON string literal; after the call output is JSON text, even null', () => {
    expect(toWitRequest(preRequest('git push {x')).input).toBe('"git push {x"');
    expect(toWitRequest(postRequest(null, true))).toMatchObject({ event: 'post-tool-use', output: 'null', isError: true });
  });
});

describe('codec: WIT decision → response, validated like subprocess stdout', () => {
  const cap = 1024;
  const cases: ReadonlyArray<{ name: string; decision: WitDecision; expected: unknown }> = [
    { name: 'allow', decision: { tag: 'allow' }, expected: { ok: true, value: { decision: 'allow' } } },
    { name: 'deny', decision: { tag: 'deny', val: 'no' }, expected: { ok: true, value: { decision: 'deny', reason: 'no' } } },
    {
      name: 'modify with a reason',
      decision: { tag: 'modify', val: { input: '{"a":1}', reason: 'r' } },
      expected: { ok: true, value: { decision: 'modify', input: { a: 1 }, reason: 'r' } },
    },
    {
      name: 'modify without a reason has no reason key',
      decision: { tag: 'modify', val: { input: '"s"', reason: undefined } },
      expected: { ok: true, value: { decision: 'modify', input: 's' } },
    },
    {
      name: 'replace with is_error',
      decision: { tag: 'replace', val: { output: '[1]', isError: false } },
      expected: { ok: true, value: { decision: 'replace', output: [1], is_error: false } },
    },
    {
      name: 'replace without is_error leaves it out',
      decision: { tag: 'replace', val: { output: 'null', reason: 'x' } },
      expected: { ok: true, value: { decision: 'replace', output: null, reason: 'x' } },
    },
    { name: 'an empty deny reason', decision: { tag: 'deny', val: '' }, expected: { ok: false, failure: { code: 'malformed_response' } } },
    { name: 'a blank deny reason', decision: { tag: 'deny', val: '  ' }, expected: { ok: false, failure: { code: 'malformed_response' } } },
    { name: 'modify input that is not JSON text', decision: { tag: 'modify', val: { input: '{nope' } }, expected: { ok: false, failure: { code: 'malformed_response' } } },
    { name: 'replace output that is not JSON text', decision: { tag: 'replace', val: { output: '' } }, expected: { ok: false, failure: { code: 'malformed_response' } } },
    { name: 'a reason over the cap', decision: { tag: 'deny', val: 'x'.repeat(cap + 1) }, expected: { ok: false, failure: { code: 'output_too_large' } } },
    {
      name: 'input and reason together over the cap',
      decision: { tag: 'modify', val: { input: `"${'x'.repeat(cap / 2)}"`, reason: 'y'.repeat(cap / 2) } },
      expected: { ok: false, failure: { code: 'output_too_large' } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(fromWitDecision(c.decision, cap)).toMatchObject(c.expected as object);
    });
  }

  it('sizes are UTF-8 bytes', () => {
    expect(witDecisionSize({ tag: 'deny', val: 'ü' })).toBe(2);
    expect(fromWitDecision({ tag: 'deny', val: 'üü' }, 3)).toMatchObject({ ok: false, failure: { code: 'output_too_large' } });
  });
});
