import { AUDIT_SCHEMA_VERSION, type AuditEvent, type GatewayAuditEvent, type ChainDecided, type ChainStarted, type HookDecided } from '../contract/audit.js';
import type { HookCall } from '../contract/call.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';

/**
 * Where audit events go: a callback, or an object with `write` (and `close`, awaited by
 * {@link HookRunner.close} — a file sink flushes there). A sink is told every event synchronously, in
 * order; it must not block (buffer, and write asynchronously). What it returns is not awaited: a
 * rejected promise counts as a failure of the sink, as a throw does.
 */
export type AuditSink =
  | ((event: AuditEvent) => unknown)
  | { readonly write: (event: AuditEvent) => unknown; readonly close?: () => unknown };

/** A sink failed: which one (its index in the runner's `audit` list), how, and how many times so far. */
export interface AuditSinkFailure {
  readonly sink: number;
  readonly error: unknown;
  readonly count: number;
}

/** Runner options about the audit stream. */
export interface AuditOptions {
  /** Sinks; none (the default) means no event is even built. */
  readonly audit?: AuditSink | readonly AuditSink[] | undefined;
  /** Copy tool inputs and outputs into the stream (default false: they can hold secrets). */
  readonly audit_payloads?: boolean | undefined;
  /**
   * Told of every failure of a sink (a throw or a rejected promise). A sink's failure never changes a
   * decision or stops the chain. Default: the first failure of each sink is reported on stderr as a
   * process warning (`BASIS_HOOKS_AUDIT`), and {@link HookRunner.close} reports how many events in all
   * a failing sink missed.
   */
  readonly on_audit_error?: ((failure: AuditSinkFailure) => void) | undefined;
}

type Payload = { input?: JsonValue; output?: JsonValue; is_error?: boolean };

function warn(message: string): void {
  process.emitWarning(message, { code: 'BASIS_HOOKS_AUDIT' });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Builds and delivers the audit events of a runner. Events are built as whole object literals, never
 * by spreading a shared base: on Node 20 a spread made each event ~10× as costly (measured: 6 µs
 * against 0.5 µs per event). The runner holds one only when a sink is
 * configured, so without one the stream costs a single `undefined` check per chain and per hook.
 */
export class AuditEmitter {
  readonly #writers: ReadonlyArray<(event: AuditEvent) => unknown>;
  readonly #closers: ReadonlyArray<(() => unknown) | undefined>;
  readonly #payloads: boolean;
  readonly #onError: ((failure: AuditSinkFailure) => void) | undefined;
  readonly #failures: number[];
  #closed = false;

  private constructor(sinks: readonly AuditSink[], options: AuditOptions) {
    this.#writers = sinks.map((sink) => (typeof sink === 'function' ? sink : (event: AuditEvent) => sink.write(event)));
    this.#closers = sinks.map((sink) => (typeof sink === 'function' || sink.close === undefined ? undefined : () => sink.close?.()));
    this.#payloads = options.audit_payloads === true;
    this.#onError = options.on_audit_error;
    this.#failures = sinks.map(() => 0);
  }

  /** The emitter for these options, or undefined when there is no sink. */
  static create(options: AuditOptions): AuditEmitter | undefined {
    const { audit } = options;
    if (audit === undefined) return undefined;
    const sinks: readonly AuditSink[] = typeof audit === 'function' || !Array.isArray(audit) ? [audit as AuditSink] : (audit as readonly AuditSink[]);
    if (sinks.length === 0) return undefined;
    return new AuditEmitter(sinks, options);
  }

  get payloads(): boolean {
    return this.#payloads;
  }

  /**
   * Deliver an event an integration built (the MCP gateway's tool events) through the same sinks.
   * Sinks are typed for the chain's events; the stream's readers skip types they do not know.
   */
  record(event: GatewayAuditEvent): void {
    this.#emit(event as unknown as AuditEvent);
  }

  chainStarted(call: HookCall, input: JsonValue, hooks: readonly string[], budgetMs: number | undefined): void {
    const event: ChainStarted = {
      audit_schema: AUDIT_SCHEMA_VERSION,
      type: 'chain_started',
      time: new Date().toISOString(),
      event: call.event,
      workspace: call.workspace,
      agent_id: call.agent_id,
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      hooks: [...hooks],
    };
    if (budgetMs !== undefined) event.budget_ms = budgetMs;
    if (this.#payloads) {
      event.input = input;
      if (call.event === 'post_tool_use') {
        event.output = call.output;
        event.is_error = call.is_error;
      }
    }
    this.#emit(event);
  }

  /**
   * A hook's trail entry as an event; `rewrite` is what its modify/replace made or proposed (payloads
   * only); `cold` marks the hook's first call in this runner.
   */
  hookDecided(call: HookCall, entry: TrailEntry, rewrite: Payload | undefined, cold = false): void {
    const event: HookDecided = {
      audit_schema: AUDIT_SCHEMA_VERSION,
      type: 'hook_decided',
      time: new Date().toISOString(),
      event: call.event,
      workspace: call.workspace,
      agent_id: call.agent_id,
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      hook: entry.hook,
      decision: entry.decision,
      ms: entry.ms,
      shadow: entry.shadow === true,
    };
    if (entry.reason !== undefined) event.reason = entry.reason;
    if (entry.failure !== undefined) event.failure = entry.failure;
    if (entry.policy !== undefined) event.policy = entry.policy;
    if (entry.budget !== undefined) event.budget_left_ms = entry.budget.left_ms;
    if (cold) event.cold = true;
    if (this.#payloads && rewrite !== undefined) {
      if (rewrite.input !== undefined) event.input = rewrite.input;
      if (rewrite.output !== undefined) event.output = rewrite.output;
      if (rewrite.is_error !== undefined) event.is_error = rewrite.is_error;
    }
    this.#emit(event);
  }

  chainDecided(call: HookCall, outcome: Outcome, ms: number): void {
    const event: ChainDecided = {
      audit_schema: AUDIT_SCHEMA_VERSION,
      type: 'chain_decided',
      time: new Date().toISOString(),
      event: call.event,
      workspace: call.workspace,
      agent_id: call.agent_id,
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      decision: outcome.decision,
      ms: Math.round(ms * 1000) / 1000,
    };
    if (outcome.event === 'pre_tool_use') {
      if (outcome.decision === 'deny') event.reason = outcome.reason;
      else {
        event.modified = outcome.modified;
        if (this.#payloads) event.input = outcome.input;
      }
    } else {
      event.replaced = outcome.replaced;
      if (outcome.decision === 'deny' && typeof outcome.output === 'string') event.reason = outcome.output;
      if (this.#payloads) {
        event.output = outcome.output;
        event.is_error = outcome.is_error;
      }
    }
    this.#emit(event);
  }

  /** Close the sinks that can be closed (a file sink flushes); report what failing sinks missed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#closers.map(async (close, sink) => {
        try {
          await close?.();
        } catch (error) {
          this.#failed(sink, error);
        }
      }),
    );
    if (this.#onError !== undefined) return;
    this.#failures.forEach((count, sink) => {
      if (count > 1) warn(`audit sink #${sink} failed ${count} times in all; those events are missing from it`);
    });
  }

  #emit(event: AuditEvent): void {
    for (let sink = 0; sink < this.#writers.length; sink++) {
      try {
        const result = this.#writers[sink]?.(event);
        if (result instanceof Promise) result.catch((error: unknown) => this.#failed(sink, error));
      } catch (error) {
        this.#failed(sink, error);
      }
    }
  }

  #failed(sink: number, error: unknown): void {
    const count = (this.#failures[sink] ?? 0) + 1;
    this.#failures[sink] = count;
    if (this.#onError !== undefined) {
      try {
        this.#onError({ sink, error, count });
      } catch {
        // A reporter that throws must not reach the chain either.
      }
      return;
    }
    if (count === 1) warn(`audit sink #${sink} failed: ${describe(error)} (the hooks' decisions are unaffected; later failures of this sink are counted, not repeated)`);
  }
}
