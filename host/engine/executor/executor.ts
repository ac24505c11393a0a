import type { WitHookRequest } from '../../codec/wit.js';
import type { CallOutcome } from './messages.js';

/** What became of one call: what the guest did, or what its runner did instead. */
export type GuestReply =
  | CallOutcome
  /** Worker isolation: the deadline passed; the worker was terminated. */
  | { readonly type: 'timeout' }
  | { readonly type: 'aborted'; readonly why: string }
  /** The worker died under the call (not because the pool stopped it). */
  | { readonly type: 'crashed'; readonly message: string; readonly outOfMemory: boolean }
  /** The component cannot be instantiated: no call can run. */
  | { readonly type: 'unavailable'; readonly message: string };

/**
 * Runs calls against instances of one component — a pool of workers (worker isolation) or one
 * instance on the caller's thread (metered isolation). Never rejects a call: every way it can end is
 * a {@link GuestReply}.
 */
export interface GuestRunner {
  /** Have an instance ready. Rejects when the component cannot be instantiated. */
  warm(): Promise<void>;
  /**
   * Run one call. `timeoutMs`, when given and shorter than the hook's own, is this call's deadline
   * (a chain budget's remainder); only metered isolation takes it — a worker is stopped by `signal`.
   * Metered isolation answers a quick call directly (no promise).
   */
  invoke(request: WitHookRequest, signal?: AbortSignal, timeoutMs?: number): GuestReply | Promise<GuestReply>;
  /** Stop: calls still waiting end `aborted`. Idempotent. */
  close(): Promise<void>;
}
