import type { HookFailure } from '../contract/failure.js';
import { preview } from '../contract/preview.js';
import type { TrailEntry } from '../contract/outcome.js';
import type { RequestText } from '../codec/request.js';
import { isHookError } from '../errors/hook-error.js';
import type { Rewrite } from './chain-core.js';
import type { InvokeContext } from './transport.js';

/** The context a hook's transport is invoked with (literals per shape, no spreads: this is per hook). */
export function contextOf(hook: string, signal: AbortSignal | undefined, deadline: number | undefined, text: RequestText): InvokeContext {
  if (signal === undefined) return deadline === undefined ? { hook, text } : { hook, deadline_ms: deadline, text };
  return deadline === undefined ? { hook, signal, text } : { hook, signal, deadline_ms: deadline, text };
}

/** What a call still in flight when the runner closed comes to (its transport is being closed). */
export function closedResult(hook: string): unknown {
  return { ok: false, failure: closedFailure(hook) };
}

/** The failure of a hook whose call was in flight when the runner closed. */
export function closedFailure(hook: string): HookFailure {
  return { code: 'timeout', message: `the runner was closed while the call was in flight (hook "${hook}")` };
}

/** Milliseconds since `started`, to the µs (the trail's `ms`). */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** A promise-like answer; reading `then` may throw (a hostile or broken transport): that is answered `error`. */
export function thenableOf(value: unknown): { readonly thenable: PromiseLike<unknown> | undefined } | { readonly error: unknown } {
  if (typeof value !== 'object' || value === null) return { thenable: undefined };
  try {
    return { thenable: typeof (value as { then?: unknown }).then === 'function' ? (value as PromiseLike<unknown>) : undefined };
  } catch (error) {
    return { error };
  }
}

/**
 * A transport must answer for every misbehaviour of its hook; a throw (or a rejection) is our bug,
 * and still fails closed rather than escaping as an allow.
 */
export function thrown(kind: string, error: unknown): unknown {
  if (isHookError(error)) return { ok: false, failure: error.toFailure() };
  return { ok: false, failure: { code: 'internal_error', message: `transport "${kind}" threw: ${preview(error instanceof Error ? `${error.name}: ${error.message}` : error, 300)}` } };
}

/** A shadow entry's proposed rewrite, for its audit event. */
export function rewriteFields(entry: TrailEntry): Rewrite {
  const out: Rewrite = {};
  if (entry.input !== undefined) out.input = entry.input;
  if (entry.output !== undefined) out.output = entry.output;
  if (entry.is_error !== undefined) out.is_error = entry.is_error;
  return out;
}
