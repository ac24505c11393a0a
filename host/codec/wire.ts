import { HookRequest } from '../contract/request.js';
import { HookResponse } from '../contract/response.js';
import { fastHookResponse, parseHookResponse } from '../contract/fast/response.js';
import type { SafeParse } from '../contract/fast/call.js';
import type { HookFailure } from '../contract/failure.js';
import { describeIssues, formatIssues } from '../contract/issues.js';
import { JSON_LIMITS } from '../contract/limits.js';
import { parseJsonText } from './json-text.js';

/** A decode either yields the value or a typed failure that says what was wrong. */
export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: HookFailure };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function excerpt(text: string): string {
  const oneLine = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return JSON.stringify(oneLine);
}

/** Encode a request as the one JSON object a subprocess hook reads on stdin (newline-terminated). */
export function encodeRequest(request: HookRequest): string {
  return `${JSON.stringify(request)}\n`;
}

/** Decode a request (what a hook written in TypeScript does with its stdin); inverse of {@link encodeRequest}. */
export function decodeRequest(text: string): Decoded<HookRequest> {
  return decodeObject(text, (value) => HookRequest.safeParse(value), 'request');
}

/** Encode a response as a hook prints it. */
export function encodeResponse(response: HookResponse): string {
  return `${JSON.stringify(response)}\n`;
}

/**
 * Decode what a hook printed. The rules: stdout must be valid UTF-8; empty (or whitespace-only) is
 * `empty_output` — silence is not consent; anything but exactly one JSON object matching the response
 * schema is `malformed_response` (a banner line before the JSON, two objects, an unknown decision, a
 * deny without a reason, a key named twice in one object, a value beyond {@link JSON_LIMITS}).
 * Unknown extra fields are ignored. Never throws, whatever the bytes.
 */
export function decodeResponse(bytes: Uint8Array | string): Decoded<HookResponse> {
  let text: string;
  if (typeof bytes === 'string') {
    text = bytes;
  } else {
    try {
      text = utf8.decode(bytes);
    } catch {
      return { ok: false, failure: { code: 'malformed_response', message: 'response is not valid UTF-8' } };
    }
  }
  if (text.trim() === '') {
    return { ok: false, failure: { code: 'empty_output', message: 'hook printed nothing (an answer is required; silence is not consent)' } };
  }
  return decodeObject(text, parseHookResponse, 'response');
}

function decodeObject<T>(text: string, parse: (value: unknown) => SafeParse<T>, what: string): Decoded<T> {
  // The envelope is one level around the tool values it carries; duplicate keys make an answer ambiguous.
  const read = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth + 1, rejectDuplicateKeys: true });
  if (!read.ok) {
    const message =
      read.problem === 'syntax' ? `${what} is not exactly one JSON value (${read.message}): ${excerpt(text)}` : `${what} ${read.message}`;
    return { ok: false, failure: { code: 'malformed_response', message } };
  }
  const parsed = read.value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, failure: { code: 'malformed_response', message: `${what} must be a JSON object: ${excerpt(text)}` } };
  }
  const result = parse(parsed);
  if (!result.success) {
    return {
      ok: false,
      failure: { code: 'malformed_response', message: `${what} does not match the contract: ${formatIssues(describeIssues(result.error, parsed))}` },
    };
  }
  return { ok: true, value: result.data };
}

/** Validate a response that arrived as a value (an interceptor's return, a guest's mapped decision). */
export function checkResponse(value: unknown): Decoded<HookResponse> {
  // The fast path first; zod decides (and words) everything it does not take.
  const fast = fastHookResponse(value);
  if (fast !== undefined) return { ok: true, value: fast };
  const result = HookResponse.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    failure: { code: 'malformed_response', message: `response does not match the contract: ${formatIssues(describeIssues(result.error, value))}` },
  };
}
