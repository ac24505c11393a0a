/**
 * The engine's preparsed policy sets, shared by this process's Cedar hooks and reclaimed when no hook
 * holds them.
 *
 * `@cedar-policy/cedar-wasm` keeps every preparsed set (and schema) in a map of its own for the life
 * of the process and has no call to drop one, so a host that reloads changed policies would keep every
 * version. But preparsing under an id the engine already holds *replaces* what it held (and frees it).
 * So the ids handed to the engine are slots: content is preparsed into a slot, two hooks of the same
 * content share it, and a slot no live hook holds any more is reused for the next new content — the
 * engine then frees the old set. The engine holds at most as many sets as there have been *at once*.
 */

/** What a hook preparses into a slot: true when the engine took it. */
export type Preparse = (id: string) => boolean;

interface Slot {
  readonly id: string;
  holders: number;
}

/** A pool of engine ids (see the module's comment). One per process: the engine's map is one. */
export class PreparsedPool {
  readonly #byContent = new Map<string, Slot>();
  readonly #free: string[] = [];
  #made = 0;

  constructor(private readonly prefix: string) {}

  /**
   * The engine id holding `content` (a digest of what is preparsed), preparsing it with `preparse`
   * first when no slot holds it yet: a free slot is reused, else a new one is made. Each call is one
   * hold, given back with {@link release}. Undefined (and nothing held) when `preparse` failed.
   */
  acquire(content: string, preparse: Preparse): string | undefined {
    const held = this.#byContent.get(content);
    if (held !== undefined) {
      held.holders++;
      return held.id;
    }
    const reused = this.#free.pop();
    const id = reused ?? `${this.prefix}${this.#made++}`;
    if (!preparse(id)) {
      // A failed preparse changes nothing in the engine ("side-effect free on error"): the slot stays free.
      if (reused !== undefined) this.#free.push(reused);
      else this.#made--;
      return undefined;
    }
    this.#byContent.set(content, { id, holders: 1 });
    return id;
  }

  /** Give back one hold of `content`; at none, its slot is free for the next new content. */
  release(content: string): void {
    const slot = this.#byContent.get(content);
    if (slot === undefined) return;
    slot.holders--;
    if (slot.holders > 0) return;
    this.#byContent.delete(content);
    this.#free.push(slot.id);
  }

  /** How many slots hold a set now, and how many the engine has been given in all (its map's size). */
  stats(): { readonly held: number; readonly slots: number } {
    return { held: this.#byContent.size, slots: this.#made };
  }
}

/** The process's pool of Cedar policy-set ids. */
export const preparsedSets = new PreparsedPool('basis-hooks:');

/** Gives back a garbage-collected hook's holds: what it acquired, by content. */
const reclaim = new FinalizationRegistry<string[]>((contents) => {
  for (const content of contents.splice(0)) preparsedSets.release(content);
});

/**
 * What one hook holds in the pool: its acquisitions, given back by {@link Holds.release} or, at the
 * latest, when `owner` (the hook) is garbage-collected.
 */
export class Holds {
  readonly #contents: string[] = [];

  constructor(owner: object) {
    reclaim.register(owner, this.#contents, this);
  }

  /** {@link PreparsedPool.acquire}, remembered as this hook's. */
  acquire(content: string, preparse: Preparse): string | undefined {
    const id = preparsedSets.acquire(content, preparse);
    if (id !== undefined) this.#contents.push(content);
    return id;
  }

  /** Give back everything this hook holds (it decides nothing afterwards). */
  release(): void {
    reclaim.unregister(this);
    for (const content of this.#contents.splice(0)) preparsedSets.release(content);
  }
}
