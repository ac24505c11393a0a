import type { Binding } from '../instance/binding.js';
import { asGlue } from '../instance/glue.js';
import { Instance, type InstanceSpec } from '../instance/instance.js';
import type { EngineOutcome } from '../outcome.js';
import { aborted, type CallOptions, type Executor } from './executor.js';

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
 * One metered instance on the caller's thread. A call runs synchronously from its start to its end
 * (instantiating a fresh instance first when the last one was discarded) — JavaScript cannot enter the
 * instance again while it runs, so overlapping callers simply take turns and one instance is enough.
 * Each call holds the thread for at most its deadline plus the meter's overshoot (see
 * meter/costs.ts): a runaway cannot hold it longer, nor starve the calls after it for longer than
 * that; and after a long call the event loop gets a turn (signals, timers, I/O).
 */
export class InThreadExecutor<A, R> implements Executor<A, R> {
  readonly #spec: InstanceSpec;
  readonly #glueUrl: string;
  readonly #binding: Binding<A, R>;
  #instance: Promise<Instance<A, R>> | undefined;
  /** The instance once made: calls go straight to it, without awaiting anything. */
  #made: Instance<A, R> | undefined;
  /** The last invoke ran the guest (on this thread, within the call): its meter says what it spent. */
  #ran = false;
  #closed = false;

  constructor(spec: InstanceSpec, glueUrl: string, binding: Binding<A, R>) {
    this.#spec = spec;
    this.#glueUrl = glueUrl;
    this.#binding = binding;
  }

  /** Import the glue and make the first instance (within the load deadline). Rejects when it cannot be instantiated. */
  async warm(): Promise<void> {
    this.#instance ??= import(this.#glueUrl).then((glue: unknown) => {
      const instance = new Instance(this.#spec, asGlue(glue), this.#binding);
      instance.start();
      return instance;
    });
    this.#made = await this.#instance;
  }

  invoke(args: A, options?: CallOptions): EngineOutcome<R> | Promise<EngineOutcome<R>> {
    this.#ran = false;
    if (this.#closed) return aborted('the executor was closed');
    if (options?.signal?.aborted === true) return aborted('the call was aborted');
    const instance = this.#made;
    if (instance === undefined) return this.#invokeWhenReady(args, options);
    const started = performance.now();
    const outcome = instance.call(args, options?.deadlineMs, started);
    this.#ran = true;
    // A quick call is answered at once, synchronously: a chain of such hooks runs without a promise.
    if (performance.now() - started < YIELD_AFTER_MS) return outcome;
    return new Promise((resolve) => setImmediate(() => resolve(outcome)));
  }

  /** Fuel units the last invoke spent, when it ran the guest within the call (not when it had to load first). */
  lastFuelUsed(): number | undefined {
    return this.#ran ? this.#made?.fuelUsed() : undefined;
  }

  async #invokeWhenReady(args: A, options?: CallOptions): Promise<EngineOutcome<R>> {
    try {
      await this.warm();
    } catch (error) {
      if (this.#closed) return aborted('the executor was closed');
      return { type: 'load-failure', message: `cannot instantiate the component: ${describe(error)}`, logs: {} };
    }
    return this.invoke(args, options);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const instance = this.#instance;
    this.#made = undefined;
    if (instance === undefined) return;
    try {
      (await instance).discard();
    } catch {
      // Never instantiated: nothing to close.
    }
  }
}
