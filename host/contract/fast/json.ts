import type { JsonValue } from '../json.js';
import { JSON_LIMITS } from '../limits.js';

/**
 * Deepest nesting the fast check walks. Deeper values are not rejected: they go to zod, which decides
 * (and words the error), exactly as without a fast path. A cycle ends here too.
 */
export const FAST_JSON_MAX_DEPTH = 64;

/**
 * The fast check's bound on a value's length as JSON text: every string counted as if each of its
 * characters needed a six-character escape, every number as the longest a double can be written
 * (24 characters), so the bound is never below the real length. A value whose bound passes
 * {@link JSON_LIMITS}.max_length is not rejected: zod measures it exactly and decides.
 */
const NUMBER_BOUND = 24;

const objectProto = Object.prototype;
const arrayProto = Array.prototype;

/** One walk's running length bound, so nested calls share it without allocating. */
let bound = 0;

/**
 * True when `value` is *obviously* a JSON value within {@link JSON_LIMITS}: `null`, a boolean, a string,
 * a finite number, a dense plain array or a plain object (prototype `Object.prototype`) of such
 * values, nested at most {@link FAST_JSON_MAX_DEPTH} deep, whose length bound as JSON text is within
 * the limit. False means "not obviously": the caller asks zod, which may still accept it (an object
 * with a `null` prototype, a long value...). Never true for a value zod's JSON schema rejects (a test
 * proves it on a generated corpus).
 *
 * Left to zod on purpose: an own `__proto__` key (zod's copy keeps it as a key, the fast copy would
 * have to as well) and non-plain prototypes — rare shapes whose handling zod owns.
 */
export function isPlainJson(value: unknown): value is JsonValue {
  return run(value, false) !== MISS;
}

/**
 * A fresh copy of `value` when it is obviously JSON ({@link isPlainJson}), else `undefined` (then zod
 * decides, and copies). Fresh arrays and objects, primitives as they are: the caller mutating its
 * object later, or a getter answering differently the second time, cannot change what was checked.
 */
export function copyPlainJson(value: unknown): JsonValue | undefined {
  const out = run(value, true);
  return out === MISS ? undefined : (out as JsonValue);
}

/** One walk, with the running bound saved around it: a getter read on the way may start another. */
function run(value: unknown, copy: boolean): unknown {
  const outer = bound;
  bound = 0;
  try {
    return walk(value, 0, copy);
  } finally {
    bound = outer;
  }
}

/** What {@link walk} returns for "not obviously JSON". */
const MISS: unique symbol = Symbol('miss');

function walk(value: unknown, depth: number, copy: boolean): unknown {
  switch (typeof value) {
    case 'string':
      bound += 6 * value.length + 2;
      return bound > JSON_LIMITS.max_length ? MISS : value;
    case 'boolean':
      bound += 5;
      return value;
    case 'number':
      bound += NUMBER_BOUND;
      return Number.isFinite(value) ? value : MISS;
    case 'object':
      break;
    default:
      return MISS;
  }
  if (value === null) {
    bound += 4;
    return null;
  }
  if (depth >= FAST_JSON_MAX_DEPTH) return MISS;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === arrayProto) {
    const array = value as readonly unknown[];
    const n = array.length;
    bound += n + 2;
    const out: unknown[] | undefined = copy ? new Array<unknown>(n) : undefined;
    for (let i = 0; i < n; i++) {
      // A hole reads as undefined, which is not JSON: no separate hole check needed.
      const item = walk(array[i], depth + 1, copy);
      if (item === MISS) return MISS;
      if (out !== undefined) out[i] = item;
    }
    return out ?? value;
  }
  if (proto !== objectProto) return MISS;
  const record = value as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> | undefined = copy ? {} : undefined;
  bound += 2;
  for (const key in record) {
    if (key === '__proto__') return MISS;
    bound += 6 * key.length + 4;
    const item = walk(record[key], depth + 1, copy);
    if (item === MISS) return MISS;
    if (out !== undefined) out[key] = item;
  }
  if (bound > JSON_LIMITS.max_length) return MISS;
  return out ?? value;
}
