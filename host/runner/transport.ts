import type { HookCall } from '../contract/call.js';
import type { FailurePolicy, HookFailure } from '../contract/failure.js';
import type { JsonValue } from '../contract/json.js';
import type { HookRequest } from '../contract/request.js';
import type { HookResponse } from '../contract/response.js';
import type { RequestText } from '../codec/request.js';
import type { Evaluated } from './chain-core.js';
import type { Explanation } from '../contract/explanation.js';

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
  /**
   * Why the hook would decide what it decides on `request`, for `basis-hooks explain`: policy hooks
   * (Cedar, CEL) say which policies or rules decided. Not on the hot path: a chain never calls it.
   */
  explain?(request: HookRequest): Explanation | Promise<Explanation>;
  /** Verify the hook can start (binary found, component loads). Rejects with a `HookError`. */
  check?(): Promise<void>;
  /**
   * Where this hook runs, when other hooks can run there in the same hop (a worker holding several
   * components): consecutive enforcing hooks of a chain whose transports name the same group are
   * handed to it together ({@link HopGroup}). Absent: hook by hook.
   */
  readonly hop?: HopGroup;
  /** Release processes, workers and instances. Idempotent. */
  close?(): Promise<void>;
}

/** One hook of a {@link Segment}: what the chain's rules need of it, and its transport. */
export interface SegmentHook {
  readonly name: string;
  readonly policy: FailurePolicy;
  readonly transport: Transport;
}

/** Where a chain stands when a segment starts (the values hooks see; see chain-core.ts). */
export type SegmentState =
  | { readonly event: 'pre_tool_use'; readonly input: JsonValue }
  | { readonly event: 'post_tool_use'; readonly input: JsonValue; readonly output: JsonValue; readonly is_error: boolean };

/** Consecutive enforcing hooks of one chain, all of one {@link HopGroup}. */
export interface Segment {
  readonly call: HookCall;
  readonly state: SegmentState;
  readonly hooks: readonly SegmentHook[];
}

/**
 * What a segment came to: one {@link Evaluated} per hook that ran, in order, judged and applied by
 * the chain's own rules (chain-core.ts) where the hooks ran — it ends early after a hook that denied,
 * or after a hook that failed where the group could not go on (the runner runs the rest hook by hook).
 * `fallback`: the group could not run the segment at all; the runner runs all of it hook by hook.
 */
export interface SegmentResult {
  readonly evaluated: readonly Evaluated[];
  readonly fallback?: boolean;
}

/**
 * Hooks that live together and can run several in one hop: the runner hands a group each segment of
 * its hooks (no budget, no `checkInput`, no shadow hook among them), and records what comes back as
 * if it had run them one by one. Must resolve for every misbehaviour of its hooks.
 */
export interface HopGroup {
  runSegment(segment: Segment, signal: AbortSignal | undefined): Promise<SegmentResult>;
}
