import type { JsonValue } from '../../contract/json.js';
import { ToolCallNotJsonError } from './errors.js';

/**
 * A parsed tool input as the runner's `input` takes it: its JSON text. The runner's parse rule turns
 * the text back into exactly this value, so a string input stays a string (passing it bare would
 * have it parsed again) and values JSON cannot hold are normalised the way a provider would
 * serialise them (`undefined` members dropped, `Date`s as ISO strings).
 */
export function inputAsText(value: unknown, toolName: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ToolCallNotJsonError('input_not_json', toolName, { cause: error });
  }
  return text ?? 'null';
}

/**
 * A tool's result as the contract's `output`: a text result as itself, a structured one as its JSON
 * value (through a JSON round trip, so hooks see what a provider would be sent; `undefined` → null).
 */
export function outputAsJson(value: unknown, toolName: string): JsonValue {
  if (typeof value === 'string') return value;
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue;
  } catch (error) {
    throw new ToolCallNotJsonError('output_not_json', toolName, { cause: error });
  }
}

/** A result the model reads as text: a string as itself, anything else as its JSON. */
export function outputAsText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
