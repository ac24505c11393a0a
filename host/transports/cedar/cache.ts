/**
 * A bounded cache of decisions for requests seen before (least recently used out first). It belongs
 * to one loaded policy set — the pinned files, by their digest — so a changed policy never answers
 * from an old one's cache; its key is the exact request (event, tool, agent, workspace, and the JSON
 * text of input, output and is_error). Off unless the hook asks for it (`decision_cache`).
 */
export class DecisionCache<V> {
  readonly #entries = new Map<string, V>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: delete and set again (cheap for a Map).
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
