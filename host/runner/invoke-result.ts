import { FailureCode, type HookFailure } from '../contract/failure.js';
import type { HookResponse } from '../contract/response.js';
import { checkResponse } from '../codec/wire.js';
import type { HookLogs } from './transport.js';

/** A transport's result once the runner has checked it: only contract values from here on. */
export type CheckedResult =
  | { readonly ok: true; readonly response: HookResponse; readonly logs: HookLogs | undefined }
  | { readonly ok: false; readonly failure: HookFailure; readonly logs: HookLogs | undefined };

function field(value: unknown, key: string): unknown {
  return (value as Record<string, unknown>)[key];
}

function logsOf(result: unknown): HookLogs | undefined {
  const logs = field(result, 'logs');
  if (logs === null || typeof logs !== 'object') return undefined;
  const stdout = field(logs, 'stdout');
  const stderr = field(logs, 'stderr');
  // Strings only: the trail holds what the contract says it holds.
  const out = { ...(typeof stdout === 'string' ? { stdout } : {}), ...(typeof stderr === 'string' ? { stderr } : {}) };
  return out.stdout === undefined && out.stderr === undefined ? undefined : out;
}

function internal(kind: string, what: string): CheckedResult {
  return { ok: false, failure: { code: 'internal_error', message: `transport "${kind}" returned ${what}` }, logs: undefined };
}

/**
 * Check what a transport's `invoke` resolved to at the boundary: a transport (a user's own, an
 * interceptor's) may hand back anything at run time. A response is checked against the contract
 * (`malformed_response` when it is not one); a failure must carry a known code and a string message;
 * anything else is `internal_error` — still a failure, so the chain fails closed. Never throws.
 */
export function checkInvokeResult(result: unknown, kind: string): CheckedResult {
  try {
    if (result === null || typeof result !== 'object') return internal(kind, 'something that is not a result');
    const logs = logsOf(result);
    const ok = field(result, 'ok');
    if (ok === true) {
      const checked = checkResponse(field(result, 'response'));
      return checked.ok ? { ok: true, response: checked.value, logs } : { ok: false, failure: checked.failure, logs };
    }
    if (ok !== false) return internal(kind, 'a result whose "ok" is not a boolean');
    const failure = field(result, 'failure');
    const code = FailureCode.safeParse(failure === null || typeof failure !== 'object' ? undefined : field(failure, 'code'));
    const message = failure === null || typeof failure !== 'object' ? undefined : field(failure, 'message');
    if (!code.success) return internal(kind, 'a failure without a known failure code');
    return { ok: false, failure: { code: code.data, message: typeof message === 'string' ? message : '' }, logs };
  } catch (error) {
    return internal(kind, `a result that could not be read (${error instanceof Error ? error.name : typeof error})`);
  }
}
