import type { Context } from '@opentelemetry/api';
import type { JsonValue } from '../contract/json.js';
import type { TelemetryOptions } from '../telemetry/options.js';
import type { AuditOptions } from './audit.js';
import type { ChainBudgets } from './budget.js';

/** Options of a {@link HookRunner}: the chain's budget per event, its audit stream, its telemetry. */
export interface RunnerOptions extends AuditOptions, TelemetryOptions {
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
  /**
   * What the tool accepts, checked against every `modify` as it is answered (e.g. the tool's input
   * schema, known to the runtime but not to the chain). Return `undefined` to accept, or a sentence
   * saying what is wrong: the rewrite is then that hook's failure (`malformed_response`) under its
   * `on_failure`, so a later hook never sees it and the tool never runs with it.
   */
  readonly checkInput?: (input: JsonValue) => string | undefined | Promise<string | undefined>;
  /**
   * The OpenTelemetry context the chain's span is a child of (e.g. a gateway's span for the request,
   * or a remote parent read from the caller's trace context). Default: the active context. Ignored
   * while no SDK is registered.
   */
  readonly trace_context?: Context | undefined;
}
