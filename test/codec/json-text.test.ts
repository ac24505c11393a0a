import { describe, expect, it } from 'vitest';
import { parseJsonText, scanJsonText } from '../../host/codec/json-text.js';
import { decodeResponse } from '../../host/codec/wire.js';
import { fromWitDecision } from '../../host/codec/wit.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';

const strict = { maxDepth: 8, rejectDuplicateKeys: true } as const;

describe('scanJsonText', () => {
  it('measures depth without recursion: arrays and objects both count, strings never do', () => {
    expect(scanJsonText('[[[[[[[[1]]]]]]]]', strict)).toBeUndefined();
    expect(scanJsonText('[[[[[[[[[1]]]]]]]]]', strict)).toMatchObject({ problem: 'limit' });
    expect(scanJsonText('{"a":{"b":[{"c":[[[[1]]]]}]}}', strict)).toBeUndefined();
    expect(scanJsonText('{"a":{"b":[{"c":[[[[[1]]]]]}]}}', strict)).toMatchObject({ problem: 'limit' });
    expect(scanJsonText(`["${'['.repeat(100)}", "\\"[[[[[[[[[[[[[["]`, strict)).toBeUndefined();
    const huge = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(scanJsonText(huge, { maxDepth: JSON_LIMITS.max_depth })).toMatchObject({ problem: 'limit' });
  });

  it('finds a key named twice in one object, at any depth, escapes decoded', () => {
    expect(scanJsonText('{"decision":"deny","reason":"x","decision":"allow"}', strict)).toMatchObject({ problem: 'duplicate_key' });
    expect(scanJsonText('{"decision":"deny","reason":"x","\\u0064ecision":"allow"}', strict)).toMatchObject({ problem: 'duplicate_key' });
    expect(scanJsonText('{"input":{"a":1,"b":[{"c":1,"c":2}]}}', strict)).toMatchObject({ problem: 'duplicate_key' });
  });

  it('does not mistake values, sibling objects or escaped quotes for duplicate keys', () => {
    expect(scanJsonText('{"a":"a","b":{"a":1},"c":[{"a":1},{"a":2}],"d":"\\"a\\":"}', strict)).toBeUndefined();
    expect(scanJsonText('{"k\\\\":1,"k":2}', strict)).toBeUndefined();
    expect(scanJsonText('[{"a":1},{"a":1}]', strict)).toBeUndefined();
    expect(scanJsonText('{"a":1,"b":{"x":1},"c":2}', strict)).toBeUndefined();
  });

  it('leaves text that is not JSON to JSON.parse', () => {
    for (const text of ['', '{', '"unterminated', ']]]', '{"a":1,"a"', 'my-hook v2\n{"decision":"allow"}']) {
      const parsed = parseJsonText(text, strict);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(['syntax', 'duplicate_key']).toContain(parsed.problem);
    }
  });

  it('refuses text longer than maxLength before scanning it', () => {
    expect(scanJsonText('"xxxxxxxx"', { maxDepth: 4, maxLength: 9 })).toMatchObject({ problem: 'limit' });
    expect(scanJsonText('"xxxxxxx"', { maxDepth: 4, maxLength: 9 })).toBeUndefined();
  });
});

describe('hook answers beyond the limits are malformed_response', () => {
  const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('a subprocess answer of 3,000 nested arrays (6 KB)', () => {
    const decoded = decodeResponse(new TextEncoder().encode(`{"decision":"modify","input":${deep(3000)}}`));
    expect(decoded).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  });

  it('an answer exactly at max_depth is taken', () => {
    const decoded = decodeResponse(`{"decision":"modify","input":${deep(JSON_LIMITS.max_depth)}}`);
    expect(decoded.ok).toBe(true);
    expect(decodeResponse(`{"decision":"modify","input":${deep(JSON_LIMITS.max_depth + 1)}}`)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  });

  it('an answer that names "decision" twice is never read as either decision', () => {
    for (const text of ['{"decision":"deny","reason":"x","decision":"allow"}', '{"decision":"allow","decision":"deny","reason":"x"}']) {
      expect(decodeResponse(text)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    }
  });

  it('a component\'s JSON text (modify input, replace output) is held to the same rules', () => {
    expect(fromWitDecision({ tag: 'modify', val: { input: deep(5000) } }, 1 << 20)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    expect(fromWitDecision({ tag: 'replace', val: { output: '{"a":1,"a":2}' } }, 1 << 20)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
    expect(fromWitDecision({ tag: 'modify', val: { input: deep(JSON_LIMITS.max_depth) } }, 1 << 20).ok).toBe(true);
  });

  it('invalid UTF-8 stays malformed_response', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"decision":"deny","reason":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    expect(decodeResponse(bytes)).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
  });
});
