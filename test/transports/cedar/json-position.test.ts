/** The scan that says where an entities or schema file stops being JSON agrees with JSON.parse. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../../host/transports/cedar/json-position.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('jsonErrorOffset', () => {
  it('finds no error exactly where JSON.parse accepts the text (property: JSON texts, their mutations, strings)', () => {
    const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', '}', ']', ',', '"', ':', 'x', '\\', '\n')).map(([text, at, insert]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0));
    });
    fc.assert(fc.property(fc.oneof(fc.json(), mutated, fc.string()), (text) => {
      expect(jsonErrorOffset(text) === undefined).toBe(parses(text));
    }), { numRuns: 2000 });
  });

  it('points at the first character that cannot continue the text', () => {
    expect(jsonErrorOffset('[\n  {"uid": }\n]')).toBe(12);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
  });
});
