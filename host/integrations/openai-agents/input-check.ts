import * as z from 'zod';
import type { JsonValue } from '../../contract/json.js';
import { describeSchemaError } from '../shared/schema-error.js';

/**
 * A check of a rewritten input against a function tool's `parameters` — the JSON Schema the model is
 * held to (for a Zod tool, the schema the SDK derived from it). The SDK keeps each tool's own parser
 * private, so the schema is the closest public statement of what the tool accepts; the tool's parser
 * still has the last word when it runs. `undefined` when the schema cannot be compiled: rewrites are
 * then checked only by the tool itself, at the call.
 */
export function inputCheck(parameters: unknown): ((input: JsonValue) => string | undefined) | undefined {
  if (parameters === null || typeof parameters !== 'object') return undefined;
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return undefined;
  }
  return (input) => {
    const result = schema.safeParse(input);
    return result.success ? undefined : describeSchemaError(result.error);
  };
}
