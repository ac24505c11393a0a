import type { JsonValue } from '../contract/json.js';
import type { Actual } from './actual.js';
import type { Expectation } from './schema.js';

/** Structural equality of JSON values (object key order does not matter). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * Does the hook's answer meet the expectation? A failure expectation needs a failure with that code; a
 * decision expectation needs that decision and, for every other key it names, an equal value. Keys the
 * expectation leaves out are not compared.
 */
export function meets(actual: Actual, expected: Expectation): boolean {
  if ('failure' in expected) return 'failure' in actual && actual.failure === expected.failure;
  if (!('decision' in actual) || actual.decision !== expected.decision) return false;
  const got = actual as Readonly<Record<string, JsonValue | undefined>>;
  return Object.entries(expected).every(([key, value]) => jsonEqual(got[key], value as JsonValue));
}

/**
 * The part of the answer to show next to the expectation: all of it when the decision (or failure)
 * differs, else only the keys the expectation names, so a diff shows what was compared.
 */
export function comparable(actual: Actual, expected: Expectation): Record<string, JsonValue> {
  const full = actual as Readonly<Record<string, JsonValue | undefined>>;
  const sameKind = 'failure' in expected ? 'failure' in actual : 'decision' in actual && actual.decision === expected.decision;
  const keys = sameKind ? Object.keys(expected) : Object.keys(full);
  const out: Record<string, JsonValue> = {};
  for (const key of keys) {
    const value = full[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
