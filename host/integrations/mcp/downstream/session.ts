import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ClientPeer } from '../conversation.js';
import { idKey } from '../jsonrpc/ids.js';
import type { Exchange, ListenStream } from './exchange.js';

/** How many messages with no stream to go on a session keeps for its next stream (older ones are dropped, and logged). */
const QUEUE_LIMIT = 256;

/**
 * The client end of a 2025-11-25 Streamable HTTP session: where the gateway's messages to one
 * client go. A message about a request goes on that request's response stream; the rest (the
 * server's own requests, list changes) on the session's GET stream — or, when the client has none
 * open, on any of its requests' streams (the client reads them all), or, when it has none at all,
 * kept for the next one.
 */
export class SessionPeer implements ClientPeer {
  readonly takesRequests = true;
  readonly #exchanges = new Map<string, Exchange>();
  readonly #queue: JSONRPCMessage[] = [];
  readonly #log: (line: string) => void;
  #listen: ListenStream | undefined;
  /** When the session last had traffic, for the idle timeout. */
  lastActive = Date.now();

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** A POSTed request's response, waiting for its answer. */
  attach(exchange: Exchange): void {
    this.lastActive = Date.now();
    this.#exchanges.set(idKey(exchange.id), exchange);
    this.#flush(exchange);
  }

  /** The session's GET stream (one at a time). False when one is open already. */
  listen(stream: ListenStream): boolean {
    if (this.#listen?.open === true) return false;
    this.#listen = stream;
    this.lastActive = Date.now();
    this.#flush(stream);
    return true;
  }

  /** Whether the session has anything open (a request in flight, a GET stream). */
  get busy(): boolean {
    for (const [key, exchange] of this.#exchanges) if (exchange.done) this.#exchanges.delete(key);
    return this.#exchanges.size > 0 || this.#listen?.open === true;
  }

  send(message: JSONRPCMessage, related?: RequestId): void {
    this.lastActive = Date.now();
    if (related !== undefined) {
      const key = idKey(related);
      const exchange = this.#exchanges.get(key);
      if (exchange !== undefined) {
        const final = !('method' in message) && 'id' in message && message.id === related;
        if (final) this.#exchanges.delete(key);
        if (exchange.send(message)) return;
        if (final) {
          // 2025-11-25 has no redelivery without resumability: the answer cannot reach the client.
          this.#log(`the answer to request ${JSON.stringify(related)} was not delivered: the client closed its stream (2025-11-25 does not take a disconnect as a cancel)`);
          return;
        }
      }
    }
    if (this.#listen?.send(message) === true) return;
    for (const exchange of this.#exchanges.values()) if (exchange.send(message)) return;
    this.#queue.push(message);
    if (this.#queue.length > QUEUE_LIMIT) {
      this.#queue.shift();
      this.#log(`a session with no open stream had more than ${QUEUE_LIMIT} messages waiting for one; the oldest was dropped`);
    }
  }

  #flush(target: { send(message: JSONRPCMessage): boolean }): void {
    while (this.#queue.length > 0) {
      const message = this.#queue[0] as JSONRPCMessage;
      if (!target.send(message)) return;
      this.#queue.shift();
    }
  }

  close(): void {
    this.#listen?.end();
  }
}
