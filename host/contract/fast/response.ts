import { HookResponse } from '../response.js';
import type { SafeParse } from './call.js';
import { copyPlainJson } from './json.js';

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** A key present with the value `undefined`: zod keeps such a key on optional fields; leave it to zod. */
function presentUndefined(record: Readonly<Record<string, unknown>>, key: string): boolean {
  return record[key] === undefined && Object.prototype.hasOwnProperty.call(record, key);
}

/**
 * A {@link HookResponse} when `value` is obviously one, else `undefined` (then zod decides). Like
 * zod, unknown extra keys are dropped (the contract ignores them) and the result is a fresh literal
 * with a fresh copy of a rewritten `input`/`output` ({@link copyPlainJson}): a hook that keeps its
 * object and changes it later cannot change the chain's state.
 * A deny's reason must have a non-blank character, exactly zod's refinement.
 */
export function fastHookResponse(value: unknown): HookResponse | undefined {
  if (!isPlainRecord(value)) return undefined;
  const record = value;
  if ('__proto__' in record && Object.prototype.hasOwnProperty.call(record, '__proto__')) return undefined;
  const reason = record['reason'];
  switch (record['decision']) {
    case 'allow':
      return { decision: 'allow' };
    case 'deny':
      if (typeof reason !== 'string' || reason.trim().length === 0) return undefined;
      return { decision: 'deny', reason };
    case 'modify': {
      const input = copyPlainJson(record['input']);
      if (input === undefined) return undefined;
      if (reason === undefined) return presentUndefined(record, 'reason') ? undefined : { decision: 'modify', input };
      return typeof reason === 'string' ? { decision: 'modify', input, reason } : undefined;
    }
    case 'replace': {
      const isError = record['is_error'];
      const output = copyPlainJson(record['output']);
      if (output === undefined) return undefined;
      if (reason !== undefined && typeof reason !== 'string') return undefined;
      if (isError !== undefined && typeof isError !== 'boolean') return undefined;
      if ((reason === undefined && presentUndefined(record, 'reason')) || (isError === undefined && presentUndefined(record, 'is_error'))) return undefined;
      if (isError === undefined) return reason === undefined ? { decision: 'replace', output } : { decision: 'replace', output, reason };
      return reason === undefined ? { decision: 'replace', output, is_error: isError } : { decision: 'replace', output, is_error: isError, reason };
    }
    default:
      return undefined;
  }
}

/** `HookResponse.safeParse` with the fast path in front; zod decides everything it does not accept. */
export function parseHookResponse(value: unknown): SafeParse<HookResponse> {
  const fast = fastHookResponse(value);
  if (fast !== undefined) return { success: true, data: fast };
  return HookResponse.safeParse(value);
}
