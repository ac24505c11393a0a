import { performance } from 'node:perf_hooks';
import type { HookEvent } from '../contract/event.js';
import type { HookFailure } from '../contract/failure.js';
import type { TrailBudget } from '../contract/outcome.js';
import { RunnerError } from '../errors/runner-error.js';

/** A chain's deadline per event, in ms (`{ "pre_tool_use": 500, "post_tool_use": 1000 }`); an event left out has none. */
export type ChainBudgets = { readonly [E in HookEvent]?: number | undefined };

const MAX_BUDGET_MS = 2 ** 31 - 1; // what a timer can wait for

/** Refuse a budget no chain could run under (not a positive number of ms). */
export function checkBudget(where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_BUDGET_MS) {
    throw new RunnerError('invalid_hooks', `${where}: a budget must be a number of ms in (0, ${MAX_BUDGET_MS}], got ${String(value)}`);
  }
  return value;
}

/** Check every event's budget of a runner's options. */
export function checkBudgets(budgets: ChainBudgets | undefined): ChainBudgets | undefined {
  if (budgets === undefined) return undefined;
  for (const [event, value] of Object.entries(budgets)) {
    if (event !== 'pre_tool_use' && event !== 'post_tool_use') {
      throw new RunnerError('invalid_hooks', `budget_ms.${event}: not an event (pre_tool_use, post_tool_use)`);
    }
    if (value !== undefined) checkBudget(`budget_ms.${event}`, value);
  }
  return budgets;
}

/**
 * The clock of one chain with a budget: started when the chain starts, read before each hook.
 *
 * Each hook gets `min(its own timeout_ms, what is left)`: the runner hands the transport what is left
 * as `deadline_ms` and the transport stops the hook at whichever comes first. A hook whose turn comes
 * after the budget is spent does not start: it fails `budget_exhausted` under its own `on_failure`.
 */
export class BudgetClock {
  readonly budgetMs: number;
  readonly #started: number;

  constructor(budgetMs: number, started: number = performance.now()) {
    this.budgetMs = budgetMs;
    this.#started = started;
  }

  /** Milliseconds left (negative once overspent). */
  leftMs(): number {
    return this.budgetMs - (performance.now() - this.#started);
  }

  /** The deadline to hand a hook that starts with `leftMs` left: whole ms, at least 1. */
  static deadline(leftMs: number): number {
    return Math.max(1, Math.ceil(leftMs));
  }

  /** The budget as a trail entry shows it. */
  static trail(budgetMs: number, leftMs: number): TrailBudget {
    return { budget_ms: budgetMs, left_ms: Math.round(leftMs * 1000) / 1000 };
  }

  /** The failure of a hook whose turn came after the budget was spent. */
  exhausted(hook: string, event: HookEvent, leftMs: number): HookFailure {
    const elapsed = Math.round((this.budgetMs - leftMs) * 1000) / 1000;
    return {
      code: 'budget_exhausted',
      message: `the ${event} chain's budget of ${this.budgetMs} ms was spent before hook "${hook}" could start (${elapsed} ms elapsed)`,
    };
  }
}
