/** What is kept of an oversized line, to say what it was (and, for an answer, which request it was for). */
export interface OversizedLine {
  /** Its length in bytes, newline excluded (counted to the end, though not kept). */
  readonly bytes: number;
  /** Its first bytes, as text. */
  readonly head: string;
  /** Its last bytes, as text. */
  readonly tail: string;
}

const SNIPPET_BYTES = 256;

/**
 * Newline-delimited JSON-RPC framing (MCP's stdio transport), with a cap: a line longer than
 * `maxBytes` is never held in memory — it is skipped as it streams in, and reported once it ends
 * (its length, its first and last bytes). A trailing `\r` is dropped; empty lines are ignored.
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOversized: (line: OversizedLine) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** Skipping an oversized line: how long it is so far, and its head and (rolling) tail. */
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(maxBytes: number, onLine: (line: string) => void, onOversized: (line: OversizedLine) => void) {
    this.#maxBytes = maxBytes;
    this.#onLine = onLine;
    this.#onOversized = onOversized;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#size > 0 || this.#skipping !== undefined) this.#endLine();
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#skipping !== undefined) {
      this.#skipping.bytes += piece.length;
      this.#skipping.tail = Buffer.concat([this.#skipping.tail, piece]).subarray(-SNIPPET_BYTES);
      return;
    }
    if (this.#size + piece.length > this.#maxBytes) {
      const held = Buffer.concat([...this.#parts, piece]);
      this.#skipping = { bytes: held.length, head: Buffer.from(held.subarray(0, SNIPPET_BYTES)), tail: Buffer.from(held.subarray(-SNIPPET_BYTES)) };
      this.#parts = [];
      this.#size = 0;
      return;
    }
    // Copied: the chunk's buffer may be reused by the stream once this returns.
    this.#parts.push(Buffer.from(piece));
    this.#size += piece.length;
  }

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped !== undefined) {
      this.#skipping = undefined;
      this.#onOversized({ bytes: skipped.bytes, head: skipped.head.toString('utf8'), tail: skipped.tail.toString('utf8') });
      return;
    }
    let line = (this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts)).toString('utf8');
    this.#parts = [];
    this.#size = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return;
    this.#onLine(line);
  }
}

/**
 * The numeric `"id"` an oversized answer most likely carried (the gateway's ids upstream are
 * numbers), read from its first and last bytes — or `undefined`.
 */
export function sniffNumericId(line: OversizedLine): number | undefined {
  for (const text of [line.tail, line.head]) {
    const matches = [...text.matchAll(/"id"\s*:\s*(\d{1,16})\s*[,}]/g)];
    const last = matches.at(-1)?.[1];
    if (last !== undefined) return Number(last);
  }
  return undefined;
}
