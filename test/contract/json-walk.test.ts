import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkJsonValue, jsonStringLength } from '../../host/contract/json-walk.js';
import { JSON_LIMITS } from '../../host/contract/limits.js';
import { JsonValue } from '../../host/contract/json.js';

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

function failure(value: unknown): { path: readonly (string | number)[]; message: string } {
  const checked = checkJsonValue(value);
  if (checked.ok) throw new Error('expected a failure');
  return checked;
}

describe('checkJsonValue: what JSON is', () => {
  it('accepts every kind of JSON value and returns an equal, separate copy', () => {
    const value = { s: 'x', n: -1.5e-7, t: true, f: false, z: null, a: [1, 'two', [], {}], o: { nested: { deep: [null] } } };
    const checked = checkJsonValue(value);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value).toEqual(value);
    expect(checked.value).not.toBe(value);
    expect((checked.value as { o: unknown }).o).not.toBe(value.o);
    expect(checked.length).toBe(JSON.stringify(value).length);
  });

  it.each([
    ['a BigInt', { a: [1, 2n] }, ['a', 1]],
    ['a function', { f: () => 1 }, ['f']],
    ['a symbol', { s: Symbol('x') }, ['s']],
    ['undefined in an array', [1, undefined], [1]],
    ['a hole in an array', [1, , 3], [1]], // eslint-disable-line no-sparse-arrays
    ['undefined as a property', { a: { b: undefined } }, ['a', 'b']],
    ['NaN', { n: NaN }, ['n']],
    ['Infinity', [[-Infinity]], [0, 0]],
    ['a Date', { when: new Date(0) }, ['when']],
    ['a Map', { m: new Map() }, ['m']],
    ['a Buffer', { b: Buffer.from('x') }, ['b']],
    ['a class instance', { c: new (class Point { x = 1 })() }, ['c']],
  ])('refuses %s, naming the path', (_what, value, path) => {
    expect(failure(value).path).toEqual(path);
  });

  it('refuses a circular structure, naming where the cycle closes; shared references are fine', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: [cyclic] };
    expect(failure(cyclic)).toMatchObject({ path: ['self', 'back', 0], message: expect.stringContaining('circular') });
    const shared = { x: 1 };
    const dag = { a: shared, b: [shared, shared] };
    const checked = checkJsonValue(dag);
    expect(checked).toMatchObject({ ok: true, value: { a: { x: 1 }, b: [{ x: 1 }, { x: 1 }] }, length: JSON.stringify(dag).length });
  });

  it(`takes nesting up to max_depth (${JSON_LIMITS.max_depth}) and refuses one level more, whatever the depth, without recursion`, () => {
    expect(checkJsonValue(nested(JSON_LIMITS.max_depth)).ok).toBe(true);
    expect(failure(nested(JSON_LIMITS.max_depth + 1)).message).toContain('deeper than 256');
    // Far past what a recursive walker survives.
    expect(failure(nested(1_000_000)).path).toHaveLength(JSON_LIMITS.max_depth);
  });

  it('refuses a value longer than max_length as JSON text — including a small value that shares one subtree many times', () => {
    const limits = { max_depth: 64, max_length: 1000 };
    expect(checkJsonValue('x'.repeat(998), { limits }).ok).toBe(true);
    expect(checkJsonValue('x'.repeat(999), { limits })).toMatchObject({ ok: false, path: [] });
    // 2^40 leaves as JSON: the walk stops at the limit (after ~max_length characters' worth of
    // visits) instead of visiting them all.
    let bomb: unknown = 'leaf';
    for (let i = 0; i < 40; i++) bomb = [bomb, bomb];
    expect(checkJsonValue(bomb, { limits: { max_depth: 64, max_length: 1 << 20 } })).toMatchObject({ ok: false, path: [] });
  });

  it('measures the JSON text length exactly, escapes and lone surrogates included', () => {
    for (const s of ['', 'plain', 'quote " and \\ backslash', '\u0000\u001f\b\f\n\r\t', '😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\ud800']) {
      expect(jsonStringLength(s)).toBe(JSON.stringify(s).length);
    }
  });

  it('reports a getter or Proxy that throws instead of throwing', () => {
    const getter = { get boom(): never { throw new Error('no') } };
    expect(failure({ a: getter })).toMatchObject({ path: ['a', 'boom'], message: expect.stringContaining('could not be read') });
    const proxy = new Proxy({}, { ownKeys: () => { throw new TypeError('trap'); } });
    expect(failure([proxy]).message).toContain('could not be read');
  });

  it('reads each property once: the copy is what was checked, whatever a getter answers later', () => {
    let reads = 0;
    const tricky = { get command(): string { reads += 1; return reads === 1 ? 'ls' : 'rm -rf /'; } };
    const checked = checkJsonValue(tricky);
    expect(checked).toMatchObject({ ok: true, value: { command: 'ls' } });
    expect(reads).toBe(1);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const checked = checkJsonValue(parsed);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const copy = checked.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('accepts plain objects from another realm and null-prototype objects', () => {
    const foreign = vm.runInNewContext('({ a: [1, { b: 2 }] })') as unknown;
    expect(checkJsonValue(foreign)).toMatchObject({ ok: true, value: { a: [1, { b: 2 }] } });
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    expect(checkJsonValue(bare)).toMatchObject({ ok: true, value: { x: 1 } });
  });
});

describe('JsonValue (the contract schema)', () => {
  it('is the walker as a zod schema: each problem an issue at its own path', () => {
    const result = JsonValue.safeParse({ list: [1, 2n] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([['list', 1]]);
    expect(JsonValue.safeParse(nested(5000)).success).toBe(false);
  });
});
