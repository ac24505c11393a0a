/**
 * Bounded collectors for a hook's output streams. Both are fed every chunk as it arrives, so the
 * pipes are drained continuously (a flood never fills a pipe and deadlocks the hook), and neither
 * ever holds more than its cap: the host's memory stays bounded whatever the hook prints.
 */

/** Collects stdout up to a cap; the first byte past it marks the capture as overflowed and drops everything. */
export class StdoutCapture {
  readonly #cap: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #overflowed = false;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Add a chunk; returns true on the chunk that first crosses the cap (the caller kills the hook). */
  push(chunk: Buffer): boolean {
    if (this.#overflowed) return false;
    if (this.#bytes + chunk.length > this.#cap) {
      // An oversized answer is rejected whole, so nothing read so far is worth keeping.
      this.#overflowed = true;
      this.#chunks = [];
      return true;
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    return false;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Everything read (empty after an overflow). */
  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#bytes);
  }
}

/** Keeps the first `cap` bytes of stderr for the trail; the rest is counted and dropped. */
export class StderrCapture {
  readonly #cap: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  push(chunk: Buffer): void {
    const room = this.#cap - this.#kept;
    if (room >= chunk.length) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.#chunks.push(Buffer.from(chunk.subarray(0, room))); // a copy, so the rest of the chunk can be freed
      this.#kept += room;
    }
    this.#dropped += chunk.length - Math.max(room, 0);
  }

  /** The kept bytes as text (invalid UTF-8 replaced, not rejected: this is a log), marked when truncated. */
  text(): string {
    const head = Buffer.concat(this.#chunks, this.#kept).toString('utf8');
    return this.#dropped === 0 ? head : `${head}\n[stderr truncated: ${this.#dropped} more bytes dropped]`;
  }
}
