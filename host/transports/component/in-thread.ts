import type { WitHookRequest } from '../../codec/wit.js';
import { asGlue, GuestInstance, type GuestSpec } from './guest.js';
import type { GuestReply, GuestRunner } from './guest-runner.js';
import type { FuelBudget } from './meter/fuel.js';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Metered isolation's runner: one fuel-metered instance on the caller's thread. A call runs
 * synchronously from its start to its end — JavaScript cannot enter the instance again while it runs
 * (the sandbox's imports never call back into the host's event loop), so overlapping callers simply
 * take turns and one instance is enough; a pool would only multiply memory. After a trap or an
 * exhausted budget the instance is discarded and a fresh one is made at once, in the background;
 * calls that arrive meanwhile wait for it.
 */
export class InThreadRunner implements GuestRunner {
  readonly #spec: GuestSpec;
  readonly #glueUrl: string;
  readonly #budget: FuelBudget;
  #guest: Promise<GuestInstance> | undefined;
  /** The instance once made: warm calls go straight to it, without awaiting anything. */
  #made: GuestInstance | undefined;
  #restarting: Promise<void> | undefined;
  #unavailable: string | undefined;
  #closed = false;
  #nextId = 1;

  constructor(spec: GuestSpec, glueUrl: string, budget: FuelBudget) {
    this.#spec = spec;
    this.#glueUrl = glueUrl;
    this.#budget = budget;
  }

  async warm(): Promise<void> {
    await this.#ready();
  }

  invoke(request: WitHookRequest, signal?: AbortSignal): Promise<GuestReply> {
    const guest = this.#made;
    if (guest !== undefined && guest.alive && !this.#closed && signal?.aborted !== true) return Promise.resolve(this.#call(guest, request));
    return this.#invokeWhenReady(request, signal);
  }

  #call(guest: GuestInstance, request: WitHookRequest): GuestReply {
    const outcome = guest.call(request);
    if (!guest.alive) this.#restart(guest).catch(() => undefined);
    return { ...outcome, id: this.#nextId++ };
  }

  async #invokeWhenReady(request: WitHookRequest, signal?: AbortSignal): Promise<GuestReply> {
    let guest: GuestInstance;
    try {
      guest = await this.#ready();
    } catch (error) {
      if (this.#closed) return { type: 'aborted', why: 'the transport was closed' };
      return { type: 'unavailable', message: describe(error) };
    }
    // Between the await above and here other callers may have run (and trapped): check again, then
    // call without yielding.
    while (!guest.alive) {
      try {
        guest = await this.#ready();
      } catch (error) {
        if (this.#closed) return { type: 'aborted', why: 'the transport was closed' };
        return { type: 'unavailable', message: describe(error) };
      }
    }
    if (this.#closed) return { type: 'aborted', why: 'the transport was closed' };
    if (signal?.aborted === true) return { type: 'aborted', why: 'the call was aborted' };
    return this.#call(guest, request);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const guest = this.#guest;
    if (guest === undefined) return;
    try {
      (await guest).discard();
    } catch {
      // Never instantiated: nothing to close.
    }
  }

  /** The instance, made (or remade) when needed. Rejects when the component cannot be instantiated. */
  async #ready(): Promise<GuestInstance> {
    if (this.#closed) throw new Error('the transport is closed');
    if (this.#unavailable !== undefined) throw new Error(this.#unavailable);
    this.#guest ??= import(this.#glueUrl).then((glue: unknown) => new GuestInstance(this.#spec, asGlue(glue), this.#budget));
    const guest = await this.#guest;
    if (!guest.alive) await this.#restart(guest);
    this.#made = guest;
    return guest;
  }

  #restart(guest: GuestInstance): Promise<void> {
    this.#restarting ??= guest
      .restart()
      .then(() => {
        if (this.#closed) guest.discard();
      })
      .catch((error: unknown) => {
        // An instance that cannot be made now cannot be made later: fail every call from now on.
        this.#unavailable ??= `cannot instantiate the component: ${describe(error)}`;
        throw new Error(this.#unavailable);
      })
      .finally(() => {
        this.#restarting = undefined;
      });
    return this.#restarting;
  }
}
