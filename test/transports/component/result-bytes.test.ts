/**
 * A call's result as the worker's reply bytes (result-bytes.ts): every result the binding can produce
 * makes the round trip equal to itself and is accepted by the result's schema; bytes that are not a
 * result written by it (truncated, altered, random) are refused with a typed error or decode to a
 * result the schema accepts — never to anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HookResult } from '../../../host/transports/component/binding.js';
import { HookResultSchema, hookCodec } from '../../../host/transports/component/codec.js';
import { ResultBytesError, decodeResult, encodeResult } from '../../../host/transports/component/result-bytes.js';

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constant(''), fc.constant('é\u{1F600}'.repeat(50)));
const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

/** Literals of the exact shapes the binding makes (absent keys, not undefined ones). */
const result: fc.Arbitrary<HookResult> = fc.oneof(
  fc.constant<HookResult>({ tag: 'ok', decision: { tag: 'allow' } }),
  text.map((val): HookResult => ({ tag: 'ok', decision: { tag: 'deny', val } })),
  fc.tuple(text, opt(text)).map(([input, reason]): HookResult => ({ tag: 'ok', decision: { tag: 'modify', val: reason === undefined ? { input } : { input, reason } } })),
  fc.tuple(text, opt(fc.boolean()), opt(text)).map(([output, isError, reason]): HookResult => {
    const val: Record<string, unknown> = { output };
    if (isError !== undefined) val['isError'] = isError;
    if (reason !== undefined) val['reason'] = reason;
    return { tag: 'ok', decision: { tag: 'replace', val } } as HookResult;
  }),
  text.map((message): HookResult => ({ tag: 'err', message })),
  fc.nat({ max: 0xffffffff }).map((bytes): HookResult => ({ tag: 'too-large', bytes })),
);

function encoded(r: HookResult): Uint8Array {
  const into = new Uint8Array(64 * 1024);
  const n = encodeResult(r, into);
  expect(n).toBeGreaterThanOrEqual(2);
  return into.slice(0, n);
}

/** Decode, and hold what comes out to the schema; a refusal must be the typed error. */
function decodedOrRefused(bytes: Uint8Array): HookResult | 'refused' {
  try {
    const value = decodeResult(bytes);
    expect(HookResultSchema.safeParse(value).success).toBe(true);
    return value;
  } catch (error) {
    expect(error).toBeInstanceOf(ResultBytesError);
    expect((error as ResultBytesError).code).toBe('internal_error');
    return 'refused';
  }
}

describe('result bytes', () => {
  it('every result makes the round trip equal to itself, valid to the schema and to the fast validator', () => {
    fc.assert(
      fc.property(result, (r) => {
        const back = decodeResult(encoded(r));
        expect(back).toStrictEqual(r);
        expect(HookResultSchema.safeParse(back).success).toBe(true);
        expect(hookCodec.resultFromJson(back)).toStrictEqual(r);
      }),
      { numRuns: 2000 },
    );
  });

  it('says it does not fit rather than writing past the area', () => {
    const r: HookResult = { tag: 'ok', decision: { tag: 'deny', val: 'x'.repeat(100) } };
    for (const size of [0, 1, 5, 6, 50, 105]) expect(encodeResult(r, new Uint8Array(size))).toBe(-1);
    expect(encodeResult(r, new Uint8Array(106))).toBe(106);
  });

  it('truncated or altered bytes are refused or read as a valid result, never as anything else', () => {
    fc.assert(
      fc.property(result, fc.nat(), fc.nat({ max: 255 }), (r, at, byte) => {
        const bytes = encoded(r);
        decodedOrRefused(bytes.subarray(0, at % bytes.length));
        const altered = bytes.slice();
        altered[at % altered.length] = byte;
        decodedOrRefused(altered);
        const longer = new Uint8Array(bytes.length + 1);
        longer.set(bytes);
        expect(decodedOrRefused(longer)).toBe('refused');
      }),
      { numRuns: 2000 },
    );
  });

  it('random bytes are refused or read as a valid result', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => void decodedOrRefused(bytes)), { numRuns: 5000 });
  });

  it('refuses flags a tag does not have, and an unknown tag', () => {
    expect(decodedOrRefused(Uint8Array.of(0, 1))).toBe('refused');
    expect(decodedOrRefused(Uint8Array.of(2, 2, 0, 0, 0, 0))).toBe('refused');
    expect(decodedOrRefused(Uint8Array.of(3, 4, 0, 0, 0, 0))).toBe('refused');
    expect(decodedOrRefused(Uint8Array.of(6, 0))).toBe('refused');
    expect(decodeResult(Uint8Array.of(3, 6, 0, 0, 0, 0))).toStrictEqual({ tag: 'ok', decision: { tag: 'replace', val: { output: '', isError: true } } });
  });
});
