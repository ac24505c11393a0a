import type { EngineOutcome } from '../outcome.js';

/** How one call is run, beyond its arguments. */
export interface CallOptions {
  /** Aborted when the caller gives up on the call: it ends as a `timeout` (`aborted`), the guest stopped. */
  readonly signal?: AbortSignal | undefined;
  /** This call's deadline in ms when shorter than the limits' own (a chain budget's remainder). */
  readonly deadlineMs?: number | undefined;
}

/**
 * Runs calls against instances of one component: one instance on the caller's thread
 * (in-thread.ts), or a pool of workers carrying each call's bytes through a shared mailbox
 * (pool.ts). Never rejects a call: every way it can end is an {@link EngineOutcome}.
 */
export interface Executor<A, R> {
  /** Have an instance ready. Rejects when the component cannot be instantiated. */
  warm(): Promise<void>;
  /** Run one call. The in-thread executor answers a quick call directly (no promise). */
  invoke(args: A, options?: CallOptions): EngineOutcome<R> | Promise<EngineOutcome<R>>;
  /** Stop: calls still waiting end `timeout` (`aborted`). Idempotent. */
  close(): Promise<void>;
}

/** The outcome of a call that did not run to the guest: given up, or the executor closed. */
export function aborted(why: string): EngineOutcome<never> {
  return { type: 'timeout', reason: 'aborted', phase: 'call', message: `the guest was stopped: ${why}`, logs: {} };
}
