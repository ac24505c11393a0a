import type { AuditOptions } from './audit.js';
import type { ChainBudgets } from './budget.js';

/** Options of a {@link HookRunner}: the chain's budget per event and its audit stream. */
export interface RunnerOptions extends AuditOptions {
  /**
   * The whole chain's deadline per event, in ms. Each hook gets `min(its timeout_ms, what is left)`;
   * a hook whose turn comes after the budget is spent fails `budget_exhausted` under its own
   * `on_failure`. An event left out has no budget.
   */
  readonly budget_ms?: ChainBudgets | undefined;
}

/** Options for one run of the chain. */
export interface RunOptions {
  /** Abort to stop the hook that is running (the call then fails closed or open by policy). */
  readonly signal?: AbortSignal;
  /** This call's budget in ms, instead of the runner's for its event. */
  readonly budget_ms?: number;
  /**
   * Wait for every shadow hook before resolving, so the outcome's trail has all of them (default
   * false: the enforced path never waits for a shadow; see {@link ChainTrail}).
   */
  readonly wait_for_shadows?: boolean;
}
