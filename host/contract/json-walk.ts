import { JSON_LIMITS, type JsonLimits } from './limits.js';

/** Any JSON value: what a tool input or output is. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Where in a value something is: object keys and array indices from the root. */
export type JsonPath = readonly (string | number)[];

/** A checked value (a fresh copy, when asked for) and its length as JSON text, or where it breaks the rules. */
export type JsonCheck =
  | { readonly ok: true; readonly value: JsonValue; readonly length: number }
  | { readonly ok: false; readonly path: JsonPath; readonly message: string };

/** Options of {@link checkJsonValue}. */
export interface JsonCheckOptions {
  readonly limits?: JsonLimits;
  /**
   * Build a copy out of what was read (default true). The copy is plain data that nobody else holds:
   * a caller that mutates its object later, a getter that answers differently the second time, or a
   * Proxy cannot change what was checked.
   */
  readonly copy?: boolean;
}

/** One array or object being walked: where it came from, where its copy goes, and how far it got. */
interface Frame {
  readonly source: readonly unknown[] | Readonly<Record<string, unknown>>;
  readonly target: JsonValue[] | Record<string, JsonValue> | undefined;
  /** The object's own enumerable keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  /** This container's key in its parent (undefined for the root). */
  readonly key: string | number | undefined;
  next: number;
}

/** Characters a string needs escaped in JSON text (or that might: a surrogate may be unpaired). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Length of `s` as a JSON string literal, exactly as `JSON.stringify` writes it. */
export function jsonStringLength(s: string): number {
  if (!NEEDS_ESCAPE.test(s)) return s.length + 2;
  let extra = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) extra += 1;
    else if (c < 0x20) extra += 5;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
      else extra += 5; // a lone surrogate is written as \udxxx
    } else if (c >= 0xdc00 && c <= 0xdfff) extra += 5;
  }
  return s.length + 2 + extra;
}

/** The path to the first container on the stack (or `next`) that is already one of its ancestors. */
function firstRepeat(stack: readonly Frame[], next: object, nextKey: string | number | undefined): (string | number)[] | undefined {
  const seen = new Set<unknown>();
  for (let i = 0; i <= stack.length; i++) {
    const source = i < stack.length ? (stack[i] as Frame).source : next;
    if (seen.has(source)) {
      const path: (string | number)[] = [];
      for (let j = 1; j < i; j++) path.push((stack[j] as Frame).key as string | number);
      // The repeat is frame i (or `next`): its own key closes the path.
      const closing = i < stack.length ? (stack[i] as Frame).key : nextKey;
      return closing === undefined ? path : [...path, closing];
    }
    seen.add(source);
  }
  return undefined;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return true;
  // A plain object from another realm (a vm context): its prototype is that realm's Object.prototype.
  if (typeof proto !== 'object' || Object.getPrototypeOf(proto) !== null) return false;
  const ctor: unknown = (proto as { constructor?: unknown }).constructor;
  return typeof ctor === 'function' && ctor.name === 'Object';
}

function kindOf(value: object): string {
  try {
    const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? name : 'object with a custom prototype';
  } catch {
    return 'object with a custom prototype';
  }
}

/**
 * Check that `value` is JSON within `limits` — without recursion, so no depth of nesting can overflow
 * the stack — and (by default) copy it. Accepts exactly what `JSON.parse` can produce: strings, finite
 * numbers, booleans, null, arrays without holes, plain objects. Refuses, naming the path: `undefined`,
 * functions, symbols, BigInt, NaN and ±Infinity, class instances (Date, Map, Buffer...), circular
 * references (found when they pass `max_depth`, as every cycle does), nesting deeper than
 * `max_depth`, and anything longer than `max_length` as JSON text. A
 * getter or Proxy that throws is reported, never rethrown. Shared (non-circular) references are
 * fine: they are JSON written twice, and count twice towards the length.
 *
 * Cost: one visit per value, a regex test per string; no allocation beyond the copy.
 */
export function checkJsonValue(value: unknown, options: JsonCheckOptions = {}): JsonCheck {
  const { max_depth: maxDepth, max_length: maxLength } = options.limits ?? JSON_LIMITS;
  const copy = options.copy ?? true;
  const stack: Frame[] = [];
  let length = 0;
  let result: JsonValue = null;
  let current: unknown = value;
  let key: string | number | undefined;

  const fail = (message: string): JsonCheck => {
    const path: (string | number)[] = [];
    for (let i = 1; i < stack.length; i++) path.push((stack[i] as Frame).key as string | number);
    if (key !== undefined) path.push(key);
    return { ok: false, path, message };
  };

  try {
    for (;;) {
      let placed: JsonValue;
      let pushed: Frame | undefined;
      switch (typeof current) {
        case 'string':
          length += jsonStringLength(current);
          placed = current;
          break;
        case 'number':
          if (!Number.isFinite(current)) return fail(`${String(current)} is not JSON (only finite numbers are)`);
          length += String(current).length;
          placed = current;
          break;
        case 'boolean':
          length += current ? 4 : 5;
          placed = current;
          break;
        case 'object': {
          if (current === null) {
            length += 4;
            placed = null;
            break;
          }
          if (stack.length >= maxDepth) {
            // A cycle always ends up here (it nests for ever), so it costs nothing until then: only
            // now look for the first container that is its own ancestor, to name it as what it is.
            const cycle = firstRepeat(stack, current, key);
            if (cycle !== undefined) return { ok: false, path: cycle, message: 'is a circular reference (JSON cannot hold a cycle)' };
            return fail(`nests deeper than ${maxDepth} levels of arrays and objects (the limit)`);
          }
          if (Array.isArray(current)) {
            const source = current as readonly unknown[];
            const n = source.length;
            length += n === 0 ? 2 : n + 1;
            const target: JsonValue[] | undefined = copy ? new Array<JsonValue>(n) : undefined;
            placed = target ?? null;
            pushed = { source, target, keys: undefined, key, next: 0 };
          } else {
            if (!isPlainObject(current)) return fail(`a ${kindOf(current)} is not JSON (only plain objects and arrays are)`);
            const source = current as Readonly<Record<string, unknown>>;
            const keys = Object.keys(source);
            length += keys.length === 0 ? 2 : 2 * keys.length + 1;
            const target: Record<string, JsonValue> | undefined = copy ? {} : undefined;
            placed = target ?? null;
            pushed = { source, target, keys, key, next: 0 };
          }
          break;
        }
        case 'undefined': {
          const parent = stack[stack.length - 1];
          if (parent === undefined) return fail('is required (a JSON value)');
          return fail(parent.keys === undefined ? 'undefined (or a hole) in an array is not JSON' : 'undefined is not JSON (leave the key out instead)');
        }
        case 'bigint':
          return fail('a BigInt is not JSON (convert it to a number or a string)');
        case 'function':
          return fail('a function is not JSON');
        default:
          return fail(`a ${typeof current} is not JSON`);
      }
      // Reported for the whole value: no one part of it is to blame.
      if (length > maxLength) return { ok: false, path: [], message: `is longer than ${maxLength} characters as JSON text (the limit)` };

      const parent = stack[stack.length - 1];
      if (parent === undefined) result = placed;
      else if (parent.target !== undefined) {
        if (parent.keys === undefined) (parent.target as JsonValue[])[key as number] = placed;
        else if (key === '__proto__') Object.defineProperty(parent.target, key, { value: placed, enumerable: true, writable: true, configurable: true });
        else (parent.target as Record<string, JsonValue>)[key as string] = placed;
      }
      if (pushed !== undefined) stack.push(pushed);

      // The next value to visit: the next element of the innermost unfinished container.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return { ok: true, value: result, length };
        if (top.keys === undefined) {
          const source = top.source as readonly unknown[];
          if (top.next < source.length) {
            key = top.next;
            current = top.next in source ? source[top.next] : undefined;
            top.next += 1;
            break;
          }
        } else if (top.next < top.keys.length) {
          const k = top.keys[top.next] as string;
          key = k;
          length += jsonStringLength(k);
          current = (top.source as Readonly<Record<string, unknown>>)[k];
          top.next += 1;
          break;
        }
        stack.pop();
      }
    }
  } catch (error) {
    const what = error instanceof Error ? error.name : typeof error;
    return fail(`could not be read (reading it threw ${what})`);
  }
}
