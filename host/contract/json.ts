import * as z from 'zod';
import { checkJsonValue, type JsonValue as JsonValueType } from './json-walk.js';

/**
 * Any JSON value (object, array, string, number, boolean or null). Tool inputs and outputs are
 * JSON values; the contract never narrows them further.
 *
 * Not `z.json()`: that recurses once per level of nesting, so a deep enough value (a hook echoing a
 * model's 3,000-deep tool input) overflows the host's stack. This schema checks with an iterative
 * walker instead ({@link checkJsonValue}), within {@link JSON_LIMITS}, and yields a fresh copy — the
 * same values `z.json()` accepted, plus the limits. Each problem is an issue at its own path
 * (`input.items[3]: a BigInt is not JSON`).
 */
export const JsonValue: z.ZodType<JsonValueType, unknown> = z.transform((value: unknown, ctx) => {
  const checked = checkJsonValue(value);
  if (checked.ok) return checked.value;
  ctx.issues.push({ code: 'custom', message: checked.message, input: value, path: [...checked.path], params: { json: true } });
  return z.NEVER;
});
export type JsonValue = JsonValueType;
