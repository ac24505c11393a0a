/**
 * A bounded capture of what a guest writes to stdout or stderr during one call. Bytes past the cap
 * are counted, not kept, and the text says how many were dropped — a guest cannot grow the host's
 * memory by printing.
 */
export class LogBuffer {
  readonly #cap: number;
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #dropped = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  write(bytes: Uint8Array): void {
    const room = this.#cap - this.#kept;
    if (room <= 0) {
      this.#dropped += bytes.byteLength;
      return;
    }
    const keep = bytes.byteLength <= room ? bytes : bytes.subarray(0, room);
    // Copy: the view may point into guest memory, which the guest reuses after the call returns.
    this.#chunks.push(keep.slice());
    this.#kept += keep.byteLength;
    this.#dropped += bytes.byteLength - keep.byteLength;
  }

  /** The text captured since the last take (undefined when nothing was written), then reset. */
  take(): string | undefined {
    if (this.#kept === 0 && this.#dropped === 0) return undefined;
    let text = Buffer.concat(this.#chunks).toString('utf8');
    if (this.#dropped > 0) text += `\n[basis-hooks: ${this.#dropped} more bytes dropped (cap ${this.#cap})]`;
    this.#chunks = [];
    this.#kept = 0;
    this.#dropped = 0;
    return text;
  }
}
