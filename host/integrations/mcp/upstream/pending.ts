import type { JSONRPCNotification, JSONRPCRequest, ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import { IdMinter, showId } from '../jsonrpc/ids.js';
import type { JSONRPCAnswer } from '../jsonrpc/read.js';
import { UpstreamError, type Answer, type UpstreamCall } from './link.js';

interface Waiting {
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: UpstreamError) => void;
  readonly onRelated: UpstreamCall['onRelated'];
  /** The client's own progress token, given back on every progress notification. */
  readonly clientToken: ProgressToken | undefined;
  timer: NodeJS.Timeout | undefined;
  readonly cleanup: () => void;
}

/** How many answers to cancelled calls are recognised as such when they arrive late (older ones are just "unknown"). */
const REMEMBERED_ABANDONED = 1024;

/**
 * The calls one connection is waiting on, under ids this connection minted. An answer settles the
 * call waiting under its id — compared with its JSON type: `"7"` does not answer `7` — and nothing
 * else; progress notifications reach the call whose token (also minted here) they carry.
 */
export class PendingCalls {
  readonly #ids = new IdMinter();
  readonly #waiting = new Map<number, Waiting>();
  /** Calls given up (cancelled, timed out): their late answers are expected, and dropped quietly. */
  readonly #abandoned = new Set<number>();
  readonly #timeoutMs: number;
  readonly #log: (line: string) => void;
  readonly #label: string;

  /**
   * @param timeoutMs how long a call may wait for its answer, reset by each progress notification
   *   (0: forever).
   * @param cancel tells the server a call was given up (stdio: `notifications/cancelled`).
   */
  constructor(options: { label: string; timeoutMs: number; log: (line: string) => void; cancel: (id: number) => void }) {
    this.#label = options.label;
    this.#timeoutMs = options.timeoutMs;
    this.#log = options.log;
    this.#cancel = options.cancel;
  }

  readonly #cancel: (id: number) => void;

  /** How many calls are waiting. */
  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Open a call: the request to send (under a fresh id, with a fresh progress token when the client
   * asked for progress) and its answer.
   */
  open(call: UpstreamCall): { readonly id: number; readonly request: JSONRPCRequest; readonly answer: Promise<Answer> } {
    const id = this.#ids.next();
    const params = call.request.params;
    const meta = params?._meta;
    const clientToken = meta?.progressToken;
    // Our token is our id: a number no other call uses, whatever tokens clients chose.
    const request: JSONRPCRequest = {
      ...call.request,
      jsonrpc: '2.0',
      id,
      ...(params === undefined ? {} : { params: clientToken === undefined ? params : { ...params, _meta: { ...meta, progressToken: id } } }),
    };
    const answer = new Promise<Answer>((resolve, reject) => {
      const onAbort = (): void => {
        this.#abandon(id, new UpstreamError('cancelled', 'the client cancelled the request'));
        this.#cancel(id);
      };
      const signal = call.signal;
      const waiting: Waiting = {
        resolve,
        reject,
        onRelated: call.onRelated,
        clientToken,
        timer: undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      this.#waiting.set(id, waiting);
      this.#arm(id, waiting);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { id, request, answer };
  }

  /** An answer arrived: settle the call waiting under its id. False (and logged) when none is. */
  settle(message: JSONRPCAnswer): boolean {
    const id = message.id;
    const waiting = typeof id === 'number' ? this.#waiting.get(id) : undefined;
    if (waiting === undefined || typeof id !== 'number') {
      if (typeof id === 'number' && this.#abandoned.delete(id)) this.#log(`${this.#label} answered request ${id} after it was given up; dropped`);
      else this.#log(`${this.#label} sent an answer for request ${showId(id)}, which nothing is waiting for (dropped, never relayed)`);
      return false;
    }
    this.#finish(id, waiting);
    waiting.resolve('result' in message ? { result: message.result } : { error: message.error });
    return true;
  }

  /** A progress notification: to the call whose token it carries, with the client's token back. False when none. */
  progress(message: JSONRPCNotification): boolean {
    const token = message.params?.progressToken;
    const waiting = typeof token === 'number' ? this.#waiting.get(token) : undefined;
    if (waiting === undefined || waiting.clientToken === undefined) return false;
    this.#arm(token as number, waiting);
    waiting.onRelated?.({ ...message, params: { ...message.params, progressToken: waiting.clientToken } });
    return true;
  }

  /** Deliver a message the server sent about call `id` (HTTP: it came on that call's stream). */
  related(id: number, message: Parameters<NonNullable<UpstreamCall['onRelated']>>[0]): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    this.#arm(id, waiting);
    waiting.onRelated?.(message);
  }

  /** Fail one call (its answer could not be read, its request not written). */
  fail(id: number, error: UpstreamError): boolean {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return false;
    this.#finish(id, waiting);
    waiting.reject(error);
    return true;
  }

  /** Fail every call (the connection is gone). */
  failAll(error: UpstreamError): void {
    for (const id of [...this.#waiting.keys()]) this.fail(id, error);
  }

  #abandon(id: number, error: UpstreamError): void {
    if (!this.fail(id, error)) return;
    this.#abandoned.add(id);
    if (this.#abandoned.size > REMEMBERED_ABANDONED) this.#abandoned.delete(this.#abandoned.values().next().value as number);
  }

  #arm(id: number, waiting: Waiting): void {
    if (this.#timeoutMs <= 0) return;
    if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    waiting.timer = setTimeout(() => {
      this.#abandon(id, new UpstreamError('timeout', `${this.#label} did not answer within ${this.#timeoutMs} ms (the gateway's --upstream-timeout; progress notifications restart it)`));
      this.#cancel(id);
    }, this.#timeoutMs);
    waiting.timer.unref();
  }

  #finish(id: number, waiting: Waiting): void {
    this.#waiting.delete(id);
    if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    waiting.cleanup();
  }
}
