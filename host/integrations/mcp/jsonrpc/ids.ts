import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * A request id as a map key. JSON-RPC ids are strings or numbers and `1` and `"1"` are different
 * requests: the key keeps the type, so they never collide.
 */
export function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** A request id as a person reads it: `7`, `"7"`. */
export function showId(id: RequestId | null | undefined): string {
  return id === undefined ? '(none)' : JSON.stringify(id);
}

/**
 * Ids the gateway sends on one connection. The gateway never reuses a peer's ids on the other side:
 * every request it forwards gets one of its own, so a peer that reuses, retypes or invents ids can
 * only ever match a request the gateway is still waiting for, under the id it chose.
 */
export class IdMinter {
  #next = 1;

  next(): number {
    const id = this.#next;
    this.#next = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }
}
