import type { JsonValue } from '../contract/json.js';

/**
 * The contract's input rule: `input` is the parsed tool input when the model's raw text is valid
 * JSON, and the raw string when it is not. A non-string value is taken as already parsed.
 *
 * @example
 * parseToolInput('{"command":"ls"}') // → { command: 'ls' }
 * parseToolInput('ls -la')           // → 'ls -la'
 */
export function parseToolInput(input: JsonValue): JsonValue {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}
