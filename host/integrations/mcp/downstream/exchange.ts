import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { sseEvent } from '../upstream/sse.js';

/**
 * The HTTP status of a JSON answer under 2026-07-28 (basic/transports/streamable-http): an
 * unsupported version, a header mismatch, a missing capability or malformed `_meta` → 400; an unknown
 * method → 404; anything else 200. 2025-11-25 answers every JSON-RPC error with 200.
 */
export function modernStatus(message: JSONRPCMessage): number {
  if (!('error' in message)) return 200;
  const code = message.error.code;
  if (code === -32022 || code === -32020 || code === -32021) return 400;
  if (code === -32601) return 404;
  if (code === -32602 && /^basis-hooks: the request has no _meta/.test(message.error.message)) return 400;
  return 200;
}

/**
 * The response to one POSTed request: a single JSON object when the answer is the first thing to
 * send, else a Server-Sent Events stream scoped to that request (the notifications and requests the
 * server sends about it, then the answer, then the end of the stream). `X-Accel-Buffering: no` keeps
 * proxies from holding events back.
 */
export class Exchange {
  readonly id: RequestId;
  readonly #response: ServerResponse;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #status: (message: JSONRPCMessage) => number;
  #streaming = false;
  #done = false;

  constructor(id: RequestId, response: ServerResponse, options: { headers?: Readonly<Record<string, string>>; status?: (message: JSONRPCMessage) => number } = {}) {
    this.id = id;
    this.#response = response;
    this.#headers = options.headers ?? {};
    this.#status = options.status ?? (() => 200);
  }

  /** Whether the answer was sent (or the client went away). */
  get done(): boolean {
    return this.#done || this.#response.destroyed;
  }

  /** Whether the answer was sent. */
  get answered(): boolean {
    return this.#done;
  }

  /** Send a message about this request; its answer ends the exchange. False when the client is gone. */
  send(message: JSONRPCMessage): boolean {
    if (this.done) return false;
    const final = !('method' in message) && 'id' in message && message.id === this.id;
    if (final && !this.#streaming) {
      this.#done = true;
      const body = JSON.stringify(message);
      this.#response.writeHead(this.#status(message), { ...this.#headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      return true;
    }
    if (!this.#streaming) {
      this.#streaming = true;
      this.#response.writeHead(200, { ...this.#headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
      this.#response.flushHeaders();
    }
    this.#response.write(sseEvent(message));
    if (final) {
      this.#done = true;
      this.#response.end();
    }
    return true;
  }
}

/** A standalone SSE stream (2025-11-25's GET): the server's messages that belong to no request. */
export class ListenStream {
  readonly #response: ServerResponse;
  readonly #keepAlive: NodeJS.Timeout;

  constructor(response: ServerResponse, headers: Readonly<Record<string, string>>, keepAliveMs: number) {
    this.#response = response;
    response.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    response.flushHeaders();
    // A comment now and then keeps intermediaries from closing a quiet stream.
    this.#keepAlive = setInterval(() => response.write(': keep-alive\n\n'), keepAliveMs);
    this.#keepAlive.unref();
    response.once('close', () => clearInterval(this.#keepAlive));
  }

  get open(): boolean {
    return !this.#response.destroyed && !this.#response.writableEnded;
  }

  send(message: JSONRPCMessage): boolean {
    if (!this.open) return false;
    this.#response.write(sseEvent(message));
    return true;
  }

  end(): void {
    clearInterval(this.#keepAlive);
    if (this.open) this.#response.end();
  }
}
