import type { HookFailure } from '../contract/failure.js';
import type { HookRequest } from '../contract/request.js';
import { preview } from '../contract/preview.js';
import type { TrailEntry } from '../contract/outcome.js';
import type { RequestText } from '../codec/request.js';
import { isHookError } from '../errors/hook-error.js';
import type { HookEvent } from '../contract/event.js';
import { BudgetClock } from './budget.js';
import { failed, judge, type Evaluated, type HookRule, type JudgeContext, type Rewrite } from './chain-core.js';
import { fuelOf, withFuel } from './hook-telemetry.js';
import type { InFlight } from './in-flight.js';
import type { CallFilter } from './matcher.js';
import type { RunOptions } from './options.js';
import type { InvokeContext, Transport } from './transport.js';
import { askFilter } from './when.js';

/** The context a hook's transport is invoked with (literals per shape, no spreads: this is per hook). */
export function contextOf(hook: string, signal: AbortSignal | undefined, deadline: number | undefined, text: RequestText): InvokeContext {
  if (signal === undefined) return deadline === undefined ? { hook, text } : { hook, deadline_ms: deadline, text };
  return deadline === undefined ? { hook, signal, text } : { hook, signal, deadline_ms: deadline, text };
}

/** A hook whose `when` said no: it does not run and is not in the trail. */
export const SKIPPED: unique symbol = Symbol('skipped');

/** A hook's `when`, asked at its turn on the request it would see: true (it runs), SKIPPED, or its failure under its policy. */
export function filtered(when: CallFilter, request: HookRequest, rule: HookRule, event: HookEvent): true | typeof SKIPPED | Evaluated {
  const verdict = askFilter(when, request);
  if (verdict === true) return true;
  return verdict === false ? SKIPPED : failed(rule, verdict, undefined, 0, event, undefined);
}

/**
 * A hook's turn under the chain's budget: the deadline it gets and what its judgement takes (the
 * budget named in a timeout), or — the budget spent — its `budget_exhausted` failure.
 */
export function underBudget(budget: BudgetClock, rule: HookRule, event: HookEvent, checkInput: RunOptions['checkInput']): { readonly deadline: number; readonly judging: JudgeContext } | Evaluated {
  const left = budget.leftMs();
  const budgetNote = BudgetClock.trail(budget.budgetMs, left);
  if (left <= 0) return failed(rule, budget.exhausted(rule.name, event, left), undefined, 0, event, budgetNote);
  const deadline = BudgetClock.deadline(left);
  // A timeout then says the budget, not (only) the hook's own timeout, cut it short.
  return { deadline, judging: { budgetNote, budget: { budgetMs: budget.budgetMs, leftMs: deadline }, checkInput } };
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

/**
 * Invoke a hook's transport and judge its answer by the chain's rules (chain-core.ts `judge`): at
 * once when it answers at once, else when its promise settles — or, the runner closing first, as its
 * timeout (`inFlight`). The fuel the call spent is read right after `invoke`, and only while
 * telemetry records (`withTelemetry`): the next call of the transport overwrites what its meter says.
 */
export function invokeAndJudge(transport: Transport, request: HookRequest, context: InvokeContext, rule: HookRule, judging: JudgeContext, inFlight: InFlight<unknown>, withTelemetry: boolean): Evaluated | Promise<Evaluated> {
  const kind = transport.kind;
  const event = request.event;
  const started = performance.now();
  let result: unknown;
  try {
    result = transport.invoke(request, context);
  } catch (error) {
    result = thrown(kind, error);
  }
  const fuel = withTelemetry ? fuelOf(transport) : undefined;
  const promised = thenableOf(result);
  if ('error' in promised) return withFuel(judge(rule, kind, thrown(kind, promised.error), elapsedMs(started), event, judging), fuel);
  const pending = promised.thenable;
  if (pending === undefined) return withFuel(judge(rule, kind, result, elapsedMs(started), event, judging), fuel);
  return withFuel(
    inFlight.run(pending, () => closedResult(context.hook)).then(
      (answer) => judge(rule, kind, answer, elapsedMs(started), event, judging),
      (error: unknown) => judge(rule, kind, thrown(kind, error), elapsedMs(started), event, judging),
    ),
    fuel,
  );
}
