/**
 * A Server-Sent Events parser for Streamable HTTP responses: fed bytes, it emits the `data` of each
 * event (multi-line data joined with `\n`), ignores comments, `id`, `event` and `retry` fields, and
 * caps an event's size (an event over the cap is skipped and reported, never held).
 */
export class SseParser {
  readonly #onData: (data: string) => void;
  readonly #onOversized: (bytes: number) => void;
  readonly #maxBytes: number;
  #buffer = '';
  #data: string[] = [];
  #dataBytes = 0;
  #skipping = false;

  constructor(maxBytes: number, onData: (data: string) => void, onOversized: (bytes: number) => void) {
    this.#maxBytes = maxBytes;
    this.#onData = onData;
    this.#onOversized = onOversized;
  }

  push(chunk: string): void {
    const text = this.#buffer === '' ? chunk : this.#buffer + chunk;
    let start = 0;
    for (;;) {
      // The earliest line end: \n, \r\n or a lone \r (the SSE grammar allows all three).
      const lf = text.indexOf('\n', start);
      const cr = text.indexOf('\r', start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      if (end === -1) break;
      this.#line(text.slice(start, end));
      start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    }
    this.#buffer = start === 0 ? text : text.slice(start);
    if (this.#buffer.length > this.#maxBytes) {
      // One line longer than the cap: drop what is held and skip to the end of the event.
      this.#dataBytes += this.#buffer.length;
      this.#buffer = '';
      this.#skipping = true;
    }
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    if (this.#buffer !== '') this.#line(this.#buffer);
    this.#buffer = '';
    this.#line('');
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#skipping) this.#onOversized(this.#dataBytes);
      else if (this.#data.length > 0) this.#onData(this.#data.join('\n'));
      this.#data = [];
      this.#dataBytes = 0;
      this.#skipping = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (this.#skipping) {
      this.#dataBytes += value.length;
      return;
    }
    this.#dataBytes += value.length;
    if (this.#dataBytes > this.#maxBytes) {
      this.#skipping = true;
      this.#data = [];
      return;
    }
    this.#data.push(value);
  }
}

/** One SSE event carrying a JSON-RPC message. */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}
