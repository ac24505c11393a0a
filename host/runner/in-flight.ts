/**
 * The hook invocations a runner has in flight, so `close()` can settle every pending call at once —
 * whatever its transport does (an interceptor's promise that never settles has no process to kill).
 * Each invocation races its own cut-off promise (never a shared one: a race against one long-lived
 * promise would keep a reaction per call alive until it settles).
 */
export class InFlight<T> {
  readonly #cuts = new Set<() => void>();
  #closed = false;

  /** `start()`'s result, or `onClose()` as soon as {@link close} is called (at once, not started, when it already was). */
  run(start: () => Promise<T>, onClose: () => T): Promise<T> {
    if (this.#closed) return Promise.resolve(onClose());
    const work = start();
    let cut!: () => void;
    const closed = new Promise<T>((resolve) => (cut = () => resolve(onClose())));
    this.#cuts.add(cut);
    return Promise.race([work, closed]).finally(() => this.#cuts.delete(cut));
  }

  /** Settle everything in flight with its `onClose()`; later runs settle that way at once. */
  close(): void {
    this.#closed = true;
    for (const cut of this.#cuts) cut();
    this.#cuts.clear();
  }
}
