import type { HookRequest } from '../contract/request.js';
import type { HookResponse } from '../contract/response.js';
import type { HookFailure } from '../contract/failure.js';
import type { RequestText } from '../codec/request.js';

/** What a hook wrote besides its answer, kept (capped) for the audit trail. */
export interface HookLogs {
  readonly stdout?: string;
  readonly stderr?: string;
}

/** One invocation's result: the hook's response, or a typed failure. Never a silent allow. */
export type InvokeResult =
  | { readonly ok: true; readonly response: HookResponse; readonly logs?: HookLogs }
  | { readonly ok: false; readonly failure: HookFailure; readonly logs?: HookLogs };

/** What the runner tells a transport about the invocation it asks for. */
export interface InvokeContext {
  /** The hook's configured name, for messages. */
  readonly hook: string;
  /** Aborted when the caller gives up on the call (the runner is closing); the transport stops the hook. */
  readonly signal?: AbortSignal;
  /**
   * The most this invocation may take, in ms, when the chain's budget leaves the hook less than its
   * own `timeout_ms`: the transport stops the hook at `min(its timeout, deadline_ms)`. Absent = its
   * own timeout alone.
   */
  readonly deadline_ms?: number;
  /**
   * The request's tool values as JSON text, made at most once per chain state and shared by every
   * hook that sees that state (absent when the transport is called outside a runner): a transport
   * that sends JSON text reads it here instead of stringifying the request again.
   */
  readonly text?: RequestText;
}

/**
 * The one interface between the chain and a way of running a hook. A transport owns nothing but
 * "request in, response or typed failure out": it decodes what its hook produced (so a malformed
 * answer is its `malformed_response`), enforces its own timeout and caps, and never applies a chain
 * rule — those live once, in {@link HookRunner}.
 */
export interface Transport {
  /** Short name of the transport kind, for diagnostics (`interceptor`, `subprocess`, `component`). */
  readonly kind: string;
  /**
   * How the hook is isolated, for telemetry (`metered`, `worker`, `process`, `in-process`). When
   * absent the runner names the usual kinds: a subprocess is `process`, an interceptor `in-process`.
   */
  readonly isolation?: string;
  /**
   * Fuel units the guest spent in the call that has just run (metered isolation runs it within
   * `invoke`, on the caller's thread), or undefined when this transport cannot say. Read by the runner
   * right after `invoke` returns, and only while telemetry is recording.
   */
  fuelUsed?(): number | undefined;
  /**
   * Run the hook on one request. Must resolve (not reject) for every hook misbehaviour. A transport
   * that has its answer at once (an interceptor, a metered component) may return it directly instead
   * of a promise: a chain whose every hook answers that way runs synchronously from its first hook to
   * its last (the runner's own promise aside).
   */
  invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult>;
  /** Verify the hook can start (binary found, component loads). Rejects with a `HookError`. */
  check?(): Promise<void>;
  /** Release processes, workers and instances. Idempotent. */
  close?(): Promise<void>;
}
