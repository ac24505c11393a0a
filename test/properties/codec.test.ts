/**
 * Codec properties over arbitrary JSON values and raw strings: round trips are exact, the JSON
 * walker and scanner agree with JSON.stringify/JSON.parse, and no input makes a decoder throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HookRequest, type HookResponse, type JsonValue } from '../../host/index.js';
import { checkResponse, decodeRequest, decodeResponse, encodeRequest, encodeResponse, fromWitDecision, parseToolInput, toWitRequest } from '../../host/codec/index.js';
import { checkJsonValue } from '../../host/contract/json-walk.js';
import { parseJsonText, scanJsonText } from '../../host/codec/json-text.js';
import { readToolInput } from '../../host/codec/input.js';

/** JSON values as JSON text gives them back (no -0). */
const json: fc.Arbitrary<JsonValue> = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));

const request: fc.Arbitrary<HookRequest> = fc
  .record({ post: fc.boolean(), workspace: text, agent_id: text, tool_call_id: text, tool_name: text, input: json, output: json, is_error: fc.boolean() })
  .map((r): HookRequest => {
    const base = { hook_schema: 1 as const, workspace: r.workspace, agent_id: r.agent_id, tool_call_id: r.tool_call_id, tool_name: r.tool_name, input: r.input };
    return r.post ? { ...base, event: 'post_tool_use', output: r.output, is_error: r.is_error } : { ...base, event: 'pre_tool_use' };
  });

const reason = text.filter((s) => s.trim() !== '');
const response: fc.Arbitrary<HookResponse> = fc.oneof(
  fc.constant<HookResponse>({ decision: 'allow' }),
  reason.map((r): HookResponse => ({ decision: 'deny', reason: r })),
  fc.record({ input: json, reason: fc.option(text, { nil: undefined }) }).map((r): HookResponse => ({ decision: 'modify', input: r.input, ...(r.reason === undefined ? {} : { reason: r.reason }) })),
  fc.record({ output: json, is_error: fc.option(fc.boolean(), { nil: undefined }), reason: fc.option(text, { nil: undefined }) }).map(
    (r): HookResponse => ({ decision: 'replace', output: r.output, ...(r.is_error === undefined ? {} : { is_error: r.is_error }), ...(r.reason === undefined ? {} : { reason: r.reason }) }),
  ),
);

describe('codec round trips', () => {
  it('request: encode → decode is the identity', () => {
    fc.assert(
      fc.property(request, (r) => {
        expect(decodeRequest(encodeRequest(r))).toEqual({ ok: true, value: r });
      }),
      { numRuns: 500 },
    );
  });

  it('response: encode → decode is the identity, as text and as UTF-8 bytes', () => {
    fc.assert(
      fc.property(response, (r) => {
        const encoded = encodeResponse(r);
        expect(decodeResponse(encoded)).toEqual({ ok: true, value: r });
        expect(decodeResponse(new TextEncoder().encode(encoded))).toEqual({ ok: true, value: r });
      }),
      { numRuns: 500 },
    );
  });

  it('a value is what it was after the WIT mapping (JSON text across the component boundary)', () => {
    fc.assert(
      fc.property(request, json, (r, v) => {
        const wit = toWitRequest(r);
        expect(JSON.parse(wit.input)).toEqual(r.input);
        expect(fromWitDecision({ tag: 'modify', val: { input: JSON.stringify(v) } }, Number.MAX_SAFE_INTEGER)).toEqual({ ok: true, value: { decision: 'modify', input: v } });
        expect(fromWitDecision({ tag: 'replace', val: { output: JSON.stringify(v) } }, Number.MAX_SAFE_INTEGER)).toEqual({ ok: true, value: { decision: 'replace', output: v } });
      }),
      { numRuns: 300 },
    );
  });

  it('the input rule: raw text is parsed when it is JSON, kept when it is not; JSON text of a value gives the value', () => {
    fc.assert(
      fc.property(fc.oneof(text, json.map((v) => JSON.stringify(v))), (raw) => {
        let expected: unknown;
        try {
          expected = JSON.parse(raw);
        } catch {
          expected = raw;
        }
        expect(parseToolInput(raw)).toEqual(expected);
        expect(readToolInput(raw)).toEqual({ ok: true, value: expected });
      }),
      { numRuns: 500 },
    );
  });
});

describe('the walker and the scanner agree with JSON itself', () => {
  it('checkJsonValue accepts every JSON value, copies it exactly, and measures it as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const checked = checkJsonValue(v);
        expect(checked.ok).toBe(true);
        if (!checked.ok) return;
        expect(checked.value).toEqual(v);
        expect(checked.length).toBe(JSON.stringify(v).length);
      }),
      { numRuns: 500 },
    );
  });

  it('scanJsonText finds no problem in JSON.stringify output, and measures depth as the value has it', () => {
    const depthOf = (v: unknown): number => {
      let max = 0;
      const stack: Array<[unknown, number]> = [[v, 0]];
      while (stack.length > 0) {
        const [x, d] = stack.pop() as [unknown, number];
        if (x !== null && typeof x === 'object') {
          max = Math.max(max, d + 1);
          for (const c of Object.values(x)) stack.push([c, d + 1]);
        }
      }
      return max;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const t = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        const depth = depthOf(v);
        expect(scanJsonText(t, { maxDepth: depth, rejectDuplicateKeys: true })).toBeUndefined();
        if (depth > 0) expect(scanJsonText(t, { maxDepth: depth - 1 })).toMatchObject({ problem: 'limit' });
      }),
      { numRuns: 500 },
    );
  });

  it('a key written twice in any object of the text is always found', () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 });
    fc.assert(
      fc.property(object, fc.nat(), fc.jsonValue({ maxDepth: 1 }), (o, pick, extra) => {
        const keys = Object.keys(o);
        const dup = keys[pick % keys.length] as string;
        const t = `${JSON.stringify(o).slice(0, -1)},${JSON.stringify(dup)}:${JSON.stringify(extra)}}`;
        expect(scanJsonText(`{"nested":[${t}]}`, { maxDepth: 64, rejectDuplicateKeys: true })).toMatchObject({ problem: 'duplicate_key' });
      }),
      { numRuns: 300 },
    );
  });

  it('parseJsonText accepts exactly what JSON.parse accepts, for text within the limits and without duplicate keys', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.jsonValue().map((v) => JSON.stringify(v))), (t) => {
        let valid = true;
        try {
          JSON.parse(t);
        } catch {
          valid = false;
        }
        const parsed = parseJsonText(t, { maxDepth: 1000 });
        expect(parsed.ok).toBe(valid);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('decoders never throw', () => {
  it('decodeResponse on any string or any bytes: a typed result', () => {
    fc.assert(
      fc.property(fc.oneof(text.map((s) => s as string | Uint8Array), fc.uint8Array({ maxLength: 256 })), (input) => {
        const decoded = decodeResponse(input);
        if (!decoded.ok) expect(['empty_output', 'malformed_response']).toContain(decoded.failure.code);
        else expect(checkResponse(decoded.value).ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('checkResponse on anything: a typed result', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true }), (value) => {
        const checked = checkResponse(value);
        if (!checked.ok) expect(checked.failure.code).toBe('malformed_response');
      }),
      { numRuns: 2000 },
    );
  });
});
