import type { JsonValue } from '../../contract/json.js';

/**
 * A tool value (JSON) as a Cedar value, so any input or output can be a context attribute:
 *
 * | JSON | Cedar |
 * | --- | --- |
 * | string, true/false | String, Bool |
 * | an integer from −2^53 to 2^53 | Long |
 * | any other number (`1.5`, `1e300`) | String: its JSON text (Cedar has no floating point) |
 * | array | Set (Cedar sets have no order and no duplicates); `null` elements are left out |
 * | object | Record; `null` members are left out (so `has` is false) |
 * | `null` at the top (`input: null`) | the attribute is left out |
 * | an object key `__entity`, `__extn` or `__expr` | left out: Cedar's JSON reads those as an entity reference or an extension value, which a tool value must not be able to forge |
 *
 * `undefined` is returned for a value that is left out.
 */
export function toCedarValue(value: JsonValue): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : JSON.stringify(value);
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (const item of value) {
          const converted = toCedarValue(item);
          if (converted !== undefined) out.push(converted);
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (key === '__entity' || key === '__extn' || key === '__expr') continue;
        const converted = toCedarValue(value[key] as JsonValue);
        if (converted !== undefined) out[key] = converted;
      }
      return out;
    }
    default:
      return undefined;
  }
}
