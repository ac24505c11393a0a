import type { JsonValue } from '../json.js';

/**
 * Deepest nesting the fast check walks. Deeper values are not rejected: they go to zod, which decides
 * (and words the error), exactly as without a fast path. A cycle ends here too.
 */
export const FAST_JSON_MAX_DEPTH = 64;

const objectProto = Object.prototype;
const arrayProto = Array.prototype;

/**
 * True when `value` is *obviously* a JSON value: `null`, a boolean, a string, a finite number, a dense
 * plain array or a plain object (prototype `Object.prototype`) of such values, nested at most
 * {@link FAST_JSON_MAX_DEPTH} deep. False means "not obviously": the caller asks zod, which may still
 * accept it (an object with a `null` prototype, a cycle...). Never true for a value zod's `z.json()`
 * rejects, and for every value it accepts, zod's copy serializes to the same JSON text (a test proves
 * both on a generated corpus).
 *
 * Left to zod on purpose: an own `__proto__` key (zod's copy loses it) and non-plain prototypes —
 * rare shapes whose handling zod owns. Not copied: zod's parse returns a copy, this returns a verdict
 * on the value as it reads now. Every transport snapshots what it hands a hook (JSON text, or a JSON
 * copy for an interceptor), so only the caller's own code could change the value under the chain.
 */
export function isPlainJson(value: unknown): value is JsonValue {
  return plain(value, 0);
}

function plain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= FAST_JSON_MAX_DEPTH) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === arrayProto) {
    const array = value as readonly unknown[];
    const n = array.length;
    for (let i = 0; i < n; i++) {
      // A hole reads as undefined, which is not JSON: no separate hole check needed.
      if (!plain(array[i], depth + 1)) return false;
    }
    return true;
  }
  if (proto !== objectProto) return false;
  const record = value as Readonly<Record<string, unknown>>;
  for (const key in record) {
    if (key === '__proto__') return false;
    if (!plain(record[key], depth + 1)) return false;
  }
  return true;
}
