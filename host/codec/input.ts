import type { JsonValue } from '../contract/json.js';
import { checkJsonValue } from '../contract/json-walk.js';
import { formatPath } from '../contract/issues.js';

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

/** A tool input after the parse rule, or why the host will not take it. */
export type ToolInput = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly message: string };

/**
 * {@link parseToolInput}, held to {@link JSON_LIMITS}: raw text that is JSON but nests deeper than
 * the limit is refused, not handed to hooks (and to every serialiser after them). `JSON.parse` itself
 * does not recurse, so parsing first is safe; the walk that follows does not recurse either.
 * Duplicate keys in the model's text are kept as `JSON.parse` keeps them (the last wins): every hook
 * sees that one parsed value, and the outcome carries it — run the tool with the outcome's `input`,
 * never with the raw text.
 */
export function readToolInput(input: JsonValue): ToolInput {
  if (typeof input !== 'string') return { ok: true, value: input };
  const parsed = parseToolInput(input);
  if (parsed === null || typeof parsed !== 'object') return { ok: true, value: parsed };
  const checked = checkJsonValue(parsed, { copy: false });
  if (checked.ok) return { ok: true, value: parsed };
  const where = formatPath(checked.path);
  return { ok: false, message: `input (raw text that is JSON)${where === '' ? '' : ` at ${where}`}: ${checked.message}` };
}
