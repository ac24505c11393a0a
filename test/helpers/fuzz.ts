/**
 * Byte generators for the fuzz tests: random bytes, and mutations of seeds that are almost what a
 * hook would print — a flipped bit, a byte inserted or dropped, a slice repeated, a cut — where a
 * parser's edge cases live.
 */
import fc from 'fast-check';

type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly bit: number }
  | { readonly kind: 'insert'; readonly at: number; readonly byte: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'repeat'; readonly at: number; readonly length: number; readonly times: number }
  | { readonly kind: 'truncate'; readonly at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x80, 0xc0, 0xed, 0xff)) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }), times: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function apply(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = bytes.length;
  const at = n === 0 ? 0 : m.at % n;
  switch (m.kind) {
    case 'flip': {
      if (n === 0) return bytes;
      const out = Uint8Array.from(bytes);
      out[at] = (out[at] ?? 0) ^ (1 << m.bit);
      return out;
    }
    case 'insert':
      return Uint8Array.from([...bytes.subarray(0, at), m.byte, ...bytes.subarray(at)]);
    case 'delete':
      return n === 0 ? bytes : Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
    case 'repeat': {
      const slice = bytes.subarray(at, at + m.length);
      const parts = [bytes.subarray(0, at)];
      for (let i = 0; i < m.times; i++) parts.push(slice);
      parts.push(bytes.subarray(at));
      return Uint8Array.from(parts.flatMap((p) => [...p]));
    }
    case 'truncate':
      return bytes.subarray(0, at);
  }
}

/** Random bytes, or a seed with a few mutations. */
export function fuzzBytes(seeds: readonly Uint8Array[], options: { maxLength?: number } = {}): fc.Arbitrary<Uint8Array> {
  const random = fc.uint8Array({ maxLength: options.maxLength ?? 256 });
  if (seeds.length === 0) return random;
  const mutated = fc.tuple(fc.constantFrom(...seeds), fc.array(mutation, { maxLength: 4 })).map(([seed, ms]) => ms.reduce(apply, seed));
  return fc.oneof({ weight: 1, arbitrary: random }, { weight: 3, arbitrary: mutated });
}

/** Seeds that are (almost) hook answers and JSON values. */
export const JSON_SEEDS: readonly Uint8Array[] = [
  '{"decision":"allow"}',
  '{"decision":"deny","reason":"force-push is not allowed"}',
  '{"decision":"modify","input":{"command":"git push"},"reason":"dropped --force"}',
  '{"decision":"replace","output":"[redacted]","is_error":false,"reason":"a token"}',
  '{"decision":"deny","reason":"x","decision":"allow"}',
  '{"a":[1,2.5e3,-0,true,false,null,{"b":"\\u00e9\\ud83d\\ude00"}]}',
  '"h\u00e9llo \ud83d\ude00 \\n"',
  `${'['.repeat(300)}${']'.repeat(300)}`,
  '{"decision":"modify","input":{"k":"\\ud800"}}',
].map((s) => new TextEncoder().encode(s));

/** True when `bytes` are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
