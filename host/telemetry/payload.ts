import type { JsonValue } from '../contract/json.js';

/**
 * The most characters of a tool's input or output put in one attribute: a span is exported in one
 * request with its batch, and collectors refuse large requests (a tool's output can be megabytes).
 */
export const PAYLOAD_MAX_CHARS = 32 * 1024;

/** A payload as attribute text: a string as it is, anything else as JSON; cut at {@link PAYLOAD_MAX_CHARS}, saying so. */
export function payloadText(value: JsonValue): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= PAYLOAD_MAX_CHARS) return text;
  return `${text.slice(0, PAYLOAD_MAX_CHARS)}…[truncated: ${text.length} chars in all]`;
}
