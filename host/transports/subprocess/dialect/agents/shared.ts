import type { Decoded } from '../../../../codec/wire.js';
import type { HookFailure } from '../../../../contract/failure.js';
import type { JsonValue } from '../../../../contract/json.js';
import type { HookResponse } from '../../../../contract/response.js';
import { describeExit, stderrExcerpt } from '../basis.js';
import { capText } from '../claude-code/protocol.js';
import type { Finished } from '../index.js';

/*
 * What the agents' command-hook protocols share, read from the hook's side: an exit status, stdout
 * that may hold a JSON object, stderr that may hold a reason.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function ok(response: HookResponse): Decoded<HookResponse> {
  return { ok: true, value: response };
}

export function fail(code: HookFailure['code'], message: string): Decoded<HookResponse> {
  return { ok: false, failure: { code, message } };
}

/** A deny with the first non-empty text, capped. */
export function deny(fallback: string, ...texts: Array<unknown>): Decoded<HookResponse> {
  const said = texts.find((t): t is string => typeof t === 'string' && t.trim() !== '');
  return ok({ decision: 'deny', reason: capText((said ?? fallback).trim()) });
}

/** A non-zero exit the agent would not read as a block: the hook failed (its `on_failure` applies). */
export function exitFailure(finished: Finished, agent: string): Decoded<HookResponse> {
  return fail('exit_nonzero', `hook ${finished.display} ${describeExit(finished.exit)} (${agent} would let the call proceed; basis applies on_failure)${stderrExcerpt(finished.stderr)}`);
}

/**
 * stdout as a JSON object: `undefined` when empty or not JSON-looking (the agents read such output
 * as "no decision"), a failure when it starts with `{` but does not parse or is not an object.
 */
export function stdoutObject(finished: Finished): { readonly value?: Record<string, JsonValue> } | { readonly failure: Decoded<HookResponse> } {
  let text: string;
  try {
    text = utf8.decode(finished.stdout).trim();
  } catch {
    return { failure: fail('malformed_response', `hook ${finished.display} printed invalid UTF-8`) };
  }
  if (!text.startsWith('{')) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { failure: fail('malformed_response', `hook ${finished.display} printed JSON that is not an object`) };
    return { value: value as Record<string, JsonValue> };
  } catch (error) {
    return { failure: fail('malformed_response', `hook ${finished.display} printed something that looks like JSON but is not (${error instanceof Error ? error.message : String(error)})`) };
  }
}

/** A JSON object field, or undefined. */
export function objectAt(value: Record<string, JsonValue> | undefined, key: string): Record<string, JsonValue> | undefined {
  const v = value?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

/** The output as text (for agents that carry results as strings). */
export function text(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
