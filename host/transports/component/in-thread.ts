import type { WitHookRequest } from '../../codec/wit.js';
import { asGlue, GuestInstance, type GuestSpec } from './guest.js';
import type { GuestReply, GuestRunner } from './guest-runner.js';

/**
 * A call that held the thread at least this long is answered from a later turn of the event loop, not
 * a microtask: a caller awaiting call after call of an always-ready instance would otherwise never let
 * the loop run — no signal handler (SIGTERM), timer or I/O in between. Quick calls stay synchronous.
 */
const YIELD_AFTER_MS = 2;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Metered isolation's runner: one metered instance on the caller's thread. A call runs synchronously
 * from its start to its end (instantiating a fresh instance first when the last one was discarded) —
 * JavaScript cannot enter the instance again while it runs, so overlapping callers simply take turns
 * and one instance is enough. Each call holds the thread for at most its `timeout_ms` plus the
 * meter's overshoot (see meter/costs.ts): a runaway cannot hold it longer, nor starve the calls after it
 * for longer than that; and after a long call the event loop gets a turn (signals, timers, I/O).
 */
export class InThreadRunner implements GuestRunner {
  readonly #spec: GuestSpec;
  readonly #glueUrl: string;
  #guest: Promise<GuestInstance> | undefined;
  /** The instance once made: calls go straight to it, without awaiting anything. */
  #made: GuestInstance | undefined;
  /** The last invoke ran the guest (on this thread, within the call): its meter says what it spent. */
  #ran = false;
  #closed = false;

  constructor(spec: GuestSpec, glueUrl: string) {
    this.#spec = spec;
    this.#glueUrl = glueUrl;
  }

  /** Import the glue and make the first instance (within the load deadline). Rejects when it cannot be instantiated. */
  async warm(): Promise<void> {
    this.#guest ??= import(this.#glueUrl).then((glue: unknown) => {
      const guest = new GuestInstance(this.#spec, asGlue(glue));
      guest.start();
      return guest;
    });
    this.#made = await this.#guest;
  }

  invoke(request: WitHookRequest, signal?: AbortSignal, timeoutMs?: number): GuestReply | Promise<GuestReply> {
    this.#ran = false;
    if (this.#closed) return { type: 'aborted', why: 'the transport was closed' };
    if (signal?.aborted === true) return { type: 'aborted', why: 'the call was aborted' };
    const guest = this.#made;
    if (guest === undefined) return this.#invokeWhenReady(request, signal, timeoutMs);
    const started = performance.now();
    const reply: GuestReply = guest.call(request, timeoutMs, started);
    this.#ran = true;
    // A quick call is answered at once, synchronously: a chain of such hooks runs without a promise.
    if (performance.now() - started < YIELD_AFTER_MS) return reply;
    return new Promise((resolve) => setImmediate(() => resolve(reply)));
  }

  /** Fuel units the last invoke spent, when it ran the guest within the call (not when it had to load first). */
  lastFuelUsed(): number | undefined {
    return this.#ran ? this.#made?.unitsUsed() : undefined;
  }

  async #invokeWhenReady(request: WitHookRequest, signal?: AbortSignal, timeoutMs?: number): Promise<GuestReply> {
    try {
      await this.warm();
    } catch (error) {
      if (this.#closed) return { type: 'aborted', why: 'the transport was closed' };
      return { type: 'unavailable', message: `cannot instantiate the component: ${describe(error)}` };
    }
    return this.invoke(request, signal, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const guest = this.#guest;
    this.#made = undefined;
    if (guest === undefined) return;
    try {
      (await guest).discard();
    } catch {
      // Never instantiated: nothing to close.
    }
  }
}
