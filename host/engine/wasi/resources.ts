/**
 * Every WASI resource a sandbox hands its guest (streams, pollables, descriptors, directory streams),
 * counted while the guest holds it. jco keeps each one in the instance's handle table until the guest
 * drops it (then it calls the object's `Symbol.dispose`), so a guest that never drops what it opens
 * would pile up host memory — and, for files, host descriptors — for as long as the instance lives.
 *
 * - One call may hold at most {@link MAX_LIVE_RESOURCES} at once: past it, opening another throws
 *   {@link ResourceLimit} (the call fails `memory_limit`).
 * - What a call opens is the call's: when the call ends — answer, trap or timeout — whatever it still
 *   holds is closed (file descriptors released at once) and the instance is discarded, which drops the
 *   rest of jco's references. The next call gets a fresh instance.
 * - The instance's own resources — its standard streams and preopened directories, which guests (and
 *   the WASI preview1 adapter) fetch once and keep — outlive calls, up to {@link MAX_INSTANCE_RESOURCES}.
 */

/** Most resources a guest may hold at once. */
export const MAX_LIVE_RESOURCES = 1024;

/** Most standard streams and preopen descriptors an instance may keep between calls. */
export const MAX_INSTANCE_RESOURCES = 64;

/** A guest holding more than {@link MAX_LIVE_RESOURCES} resources tried to open another. */
export class ResourceLimit extends Error {
  override readonly name = 'ResourceLimit' as const;
}

/** Whether a resource belongs to the call that opened it or to the instance. */
export type ResourceScope = 'call' | 'instance';

interface Entry {
  readonly scope: ResourceScope;
  /** Releases what the resource holds on the host (a file descriptor); idempotent. */
  readonly close: (() => void) | undefined;
}

const ledgers = new WeakMap<object, ResourceLedger>();

/** The ledger a resource was handed out under (undefined for objects the sandbox did not hand out). */
export function ledgerOf(resource: object): ResourceLedger | undefined {
  return ledgers.get(resource);
}

/** Mark `resource` dropped by the guest (its class's `Symbol.dispose`, which jco calls on drop). */
export function released(resource: object): void {
  ledgers.get(resource)?.release(resource);
}

/** What {@link ResourceLedger.endCall} found. */
export interface CallResources {
  /** Resources the call opened and did not drop (now closed). */
  readonly leaked: number;
  /** The call went past {@link MAX_LIVE_RESOURCES}. */
  readonly exceeded: boolean;
  /** The instance keeps more than {@link MAX_INSTANCE_RESOURCES} of its own. */
  readonly instanceOverflow: boolean;
}

/** The live resources of one sandbox. */
export class ResourceLedger {
  readonly #live = new Map<object, Entry>();
  #exceeded = false;

  /** Throws {@link ResourceLimit} when the guest may not open another resource. */
  ensureRoom(): void {
    if (this.#live.size < MAX_LIVE_RESOURCES) return;
    this.#exceeded = true;
    throw new ResourceLimit(`the guest holds ${MAX_LIVE_RESOURCES} WASI resources (streams, pollables, descriptors) and opened another`);
  }

  /** Count `resource` as handed out; throws {@link ResourceLimit} past the cap (after `close`). */
  track<T extends object>(resource: T, scope: ResourceScope, close?: () => void): T {
    if (this.#live.size >= MAX_LIVE_RESOURCES) close?.();
    this.ensureRoom();
    this.#live.set(resource, { scope, close });
    ledgers.set(resource, this);
    return resource;
  }

  release(resource: object): void {
    const entry = this.#live.get(resource);
    if (entry === undefined) return;
    this.#live.delete(resource);
    entry.close?.();
  }

  /** Resources held now. */
  get size(): number {
    return this.#live.size;
  }

  /** The call is over: close what it left open (see the module comment), and say what there was. */
  endCall(): CallResources {
    let leaked = 0;
    let instance = 0;
    for (const [resource, entry] of this.#live) {
      if (entry.scope === 'instance') {
        instance++;
        continue;
      }
      leaked++;
      this.#live.delete(resource);
      entry.close?.();
    }
    const exceeded = this.#exceeded;
    this.#exceeded = false;
    return { leaked, exceeded, instanceOverflow: instance > MAX_INSTANCE_RESOURCES };
  }

  /** The instance is discarded: close everything. */
  closeAll(): void {
    for (const entry of this.#live.values()) entry.close?.();
    this.#live.clear();
  }
}
