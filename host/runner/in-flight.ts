/**
 * The hook invocations a runner has in flight, so `close()` can settle every pending call at once —
 * whatever its transport does (an interceptor's promise that never settles has no process to kill).
 * Each invocation gets its own cut-off (never a shared promise: a race against one long-lived promise
 * would keep a reaction per call alive until it settles), and one promise per call: this is on the
 * path of every call that does not answer synchronously.
 */
export class InFlight<T> {
  readonly #cuts = new Set<() => void>();
  #closed = false;

  /** `work`'s result, or `onClose()` as soon as {@link close} is called (at once when it already was). */
  run(work: PromiseLike<T>, onClose: () => T): Promise<T> {
    if (this.#closed) return Promise.resolve(onClose());
    return new Promise<T>((resolve, reject) => {
      const cut = (): void => resolve(onClose());
      this.#cuts.add(cut);
      work.then(
        (value) => {
          this.#cuts.delete(cut);
          resolve(value);
        },
        (error: unknown) => {
          this.#cuts.delete(cut);
          reject(error);
        },
      );
    });
  }

  /** Settle everything in flight with its `onClose()`; later runs settle that way at once. */
  close(): void {
    this.#closed = true;
    for (const cut of this.#cuts) cut();
    this.#cuts.clear();
  }
}
