/** The most hops a caller goes without polling after polls that caught nothing. */
export const MAX_SKIPPED_POLLS = 64;

/**
 * Whether the caller polls for a hop's reply (the pool's `callerSpinUs`), learnt from the polls before.
 * A poll that caught nothing — the job was slower than the poll, or a busy machine descheduled the
 * worker thread — cost the caller's thread (the host's event loop) its whole spin for nothing, so the
 * next 1, 2, 4 … up to {@link MAX_SKIPPED_POLLS} hops await their reply at once; a poll that catches
 * its reply polls again from the next hop. A slow guest, or a host too busy for two threads to meet,
 * so wastes at most about one poll in 64 hops.
 */
export class PollBackoff {
  #skip = 0;
  #next = 1;

  /** Whether to poll for this hop's reply (a hop told no counts toward the skips). */
  shouldPoll(): boolean {
    if (this.#skip === 0) return true;
    this.#skip--;
    return false;
  }

  /** What the poll of a hop found: its reply (`true`) or nothing within the spin. */
  record(caught: boolean): void {
    if (caught) {
      this.#next = 1;
      return;
    }
    this.#skip = this.#next;
    this.#next = Math.min(this.#next * 2, MAX_SKIPPED_POLLS);
  }
}
