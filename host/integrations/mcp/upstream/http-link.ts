import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Era } from '../era.js';
import { readText, type Incoming } from '../jsonrpc/read.js';
import { mirroredHeaders, type ParamHeader } from '../mirror-headers.js';
import { UpstreamError, type Answer, type Related, type UpstreamCall, type UpstreamLink } from './link.js';
import { PendingCalls } from './pending.js';
import { SseParser } from './sse.js';

/** Options of an {@link HttpLink}. */
export interface HttpLinkOptions {
  /** The server's MCP endpoint. */
  readonly url: URL;
  readonly label: string;
  /** Headers sent on every request (`--upstream-header`: the gateway's own credentials, never a client's). */
  readonly headers: Readonly<Record<string, string>>;
  /** The era the server speaks (see `probeEra`): modern requests carry the mirrored `Mcp-*` headers, legacy ones a session. */
  readonly era: Era;
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
  /** Modern: a tool's `x-mcp-header` annotations, for its `Mcp-Param-*` headers. */
  readonly paramHeaders?: (tool: string) => readonly ParamHeader[] | undefined;
  /** Modern: re-read the tool list after a `HeaderMismatch` (the spec's remedy); the call is then retried once. */
  readonly refreshTools?: () => Promise<void>;
  /** Connection reuse (one keep-alive agent per server). */
  readonly agent?: http.Agent;
}

/** The SSE and JSON content types a Streamable HTTP client accepts. */
const ACCEPT = 'application/json, text/event-stream';
const HEADER_MISMATCH = -32020;
/** How long a server may keep a request's stream open after answering on it. */
const STREAM_GRACE_MS = 5000;

function mediaType(response: IncomingMessage): string {
  return (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * An MCP server spoken to over Streamable HTTP, as one client: every message its own POST; each
 * request's answer — and the progress, logs and (2025-11-25) server requests about it — on that
 * POST's response (JSON or an SSE stream). Legacy (2025-11-25): the session id the server gives at
 * `initialize` goes on every later request, the server's unrelated messages come on a GET stream,
 * and `close()` ends the session (DELETE). Modern (2026-07-28): no session; every request carries
 * the mirrored `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers, computed from the body as it is sent —
 * after the hooks rewrote it — so they always match.
 *
 * Only an answer carrying the id of the request whose stream it came on settles that request;
 * anything else is dropped and logged. Closing a request's stream is 2026-07-28's cancellation; a
 * 2025-11-25 server is also sent `notifications/cancelled`.
 */
export class HttpLink implements UpstreamLink {
  readonly label: string;
  onServerMessage: ((message: Related) => void) | undefined;
  onLog: ((line: string) => void) | undefined;
  readonly #options: HttpLinkOptions;
  readonly #pending: PendingCalls;
  readonly #requests = new Map<number, ClientRequest>();
  #session: string | undefined;
  #protocolVersion: string | undefined;
  #closed: string | undefined;
  #listening: ClientRequest | undefined;
  #target: http.RequestOptions | undefined;

  constructor(options: HttpLinkOptions) {
    this.label = options.label;
    this.#options = options;
    this.#pending = new PendingCalls({
      label: options.label,
      timeoutMs: options.timeoutMs,
      log: (line) => this.#log(line),
      cancel: (id) => {
        if (options.era === 'legacy') {
          void this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client gave up on the request' } }).catch(() => undefined);
        }
        this.#requests.get(id)?.destroy();
        this.#requests.delete(id);
      },
    });
  }

  /** The era the link speaks. */
  get era(): Era {
    return this.#options.era;
  }

  async call(call: UpstreamCall): Promise<Answer> {
    const answer = await this.#callOnce(call);
    if (call.request.method === 'initialize' && 'result' in answer && typeof answer.result.protocolVersion === 'string') {
      // From now on every request says which version the session speaks (2025-06-18 and later).
      this.#protocolVersion = answer.result.protocolVersion;
    }
    // 2026-07-28: a HeaderMismatch on a tools/call means our idea of the tool's x-mcp-header
    // annotations is stale: re-read the list and try once more (what the spec tells clients to do).
    if ('error' in answer && answer.error.code === HEADER_MISMATCH && call.request.method === 'tools/call' && this.#options.refreshTools !== undefined) {
      await this.#options.refreshTools().catch((error: unknown) => this.#log(`could not re-read the tool list of ${this.label}: ${(error as Error).message}`));
      return this.#callOnce(call);
    }
    return answer;
  }

  #callOnce(call: UpstreamCall): Promise<Answer> {
    if (this.#closed !== undefined) return Promise.reject(new UpstreamError('closed', `${this.#closed}; the request was not sent`));
    const { id, request, answer } = this.#pending.open(call);
    this.#post(request, id, call.headers);
    return answer;
  }

  notify(message: JSONRPCNotification): Promise<void> {
    return this.#postOneWay(message);
  }

  answer(id: RequestId, answer: Answer): Promise<void> {
    return this.#postOneWay({ jsonrpc: '2.0', id, ...answer } as JSONRPCMessage);
  }

  /** End the link: pending calls fail `closed`; a legacy session is ended with DELETE. */
  async close(why = `${this.label}: the connection was closed`): Promise<void> {
    if (this.#closed !== undefined) return;
    this.#closed = why;
    this.#listening?.destroy();
    this.#pending.failAll(new UpstreamError('closed', why));
    if (this.#session !== undefined) {
      await new Promise<void>((resolve) => {
        const request = this.#request('DELETE', this.#headers(), (response) => {
          response.resume();
          response.once('end', resolve);
        });
        request.once('error', () => resolve());
        request.end();
      });
    }
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────

  #headers(extra?: Readonly<Record<string, string>>): Record<string, string> {
    const headers: Record<string, string> = { accept: ACCEPT, 'content-type': 'application/json', ...this.#options.headers, ...extra };
    if (this.#session !== undefined) headers['mcp-session-id'] = this.#session;
    if (this.#protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#protocolVersion;
    return headers;
  }

  /**
   * One request to the server. `fresh` sends it on a new connection of its own (`agent: false`), not
   * on one of the agent's idle kept-alive ones: a retry after a stale connection must not meet another
   * connection the server's idle timeout closed at the same moment.
   */
  #request(method: string, headers: Record<string, string>, onResponse: (response: IncomingMessage) => void, fresh = false): ClientRequest {
    // The URL's parts once per link, not once per request (http.request(url, …) converts the URL every time).
    const target = (this.#target ??= { ...urlToHttpOptions(this.#options.url), ...(this.#options.agent === undefined ? {} : { agent: this.#options.agent }) });
    const send = this.#options.url.protocol === 'https:' ? https.request : http.request;
    return send(fresh ? { ...target, agent: false, method, headers } : { ...target, method, headers }, onResponse);
  }

  #post(request: JSONRPCRequest, id: number, extra?: Readonly<Record<string, string>>): void {
    const mirrored =
      this.#options.era === 'modern'
        ? mirroredHeaders(request, request.method === 'tools/call' ? (this.#options.paramHeaders?.(String((request.params as { name?: unknown } | undefined)?.name)) ?? []) : [])
        : {};
    const body = JSON.stringify(request);
    const headers = this.#headers({ ...mirrored, ...extra });
    const fail = (error: UpstreamError): void => {
      this.#requests.delete(id);
      this.#pending.fail(id, error);
    };
    const send = (retry: boolean): void => {
      let answered = false;
      const outgoing = this.#request('POST', headers, (response) => {
        answered = true;
        if (request.method === 'initialize') this.#learnSession(response);
        this.#response(response, id, request, fail);
      }, !retry);
      this.#requests.set(id, outgoing);
      outgoing.once('error', (error) => {
        if (this.#requests.get(id) !== outgoing) return; // given up: destroyed on purpose
        if (isStaleConnection(outgoing, error, answered) && retry) return send(false);
        fail(new UpstreamError('unreachable', `could not reach ${this.label} (${error.message})`, { cause: error }));
      });
      outgoing.end(body);
    };
    send(true);
  }

  #learnSession(response: IncomingMessage): void {
    const session = response.headers['mcp-session-id'];
    if (typeof session === 'string' && session !== '') this.#session = session;
  }

  #response(response: IncomingMessage, id: number, request: JSONRPCRequest, fail: (error: UpstreamError) => void): void {
    const status = response.statusCode ?? 0;
    const type = mediaType(response);
    if (status === 200 && type === 'text/event-stream') {
      let settled = false;
      let grace: NodeJS.Timeout | undefined;
      const parser = new SseParser(
        this.#options.maxMessageBytes,
        (data) => {
          // An event with empty data primes the client for resumption (2025-11-25 Streamable HTTP:
          // "an event ID and an empty data field"): it carries no message.
          if (data === '') return;
          const incoming = readText(data);
          if (incoming.kind === 'answer' && incoming.message.id === id) settled = true;
          this.#fromStream(id, incoming);
          if (settled && this.#requests.delete(id)) {
            // Answered: the server ends the stream now (the spec's SHOULD); one that keeps it open
            // is cut off after a grace period. Not at once: ending it ourselves would close the
            // connection, which keep-alive reuses for the next request.
            grace = setTimeout(() => response.destroy(), STREAM_GRACE_MS).unref();
          }
        },
        (bytes) => fail(new UpstreamError('bad_answer', `${this.label} sent an event of ${bytes} bytes on the answer's stream, over the gateway's --max-message-bytes; it was not read`)),
      );
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => parser.push(chunk));
      response.once('end', () => {
        clearTimeout(grace);
        parser.end();
        if (!settled) fail(new UpstreamError('closed', `${this.label} closed the answer's stream without answering`));
      });
      response.once('error', () => {
        if (!settled && this.#requests.has(id)) fail(new UpstreamError('closed', `${this.label} broke off the answer's stream`));
      });
      return;
    }
    readBody(response, this.#options.maxMessageBytes).then(
      (text) => {
        this.#requests.delete(id);
        if (text === undefined) return fail(new UpstreamError('bad_answer', `${this.label} answered with more than --max-message-bytes (HTTP ${status}); it was not read`, { status }));
        const incoming = text === '' ? undefined : readText(text);
        if (incoming?.kind === 'answer' && incoming.message.id === id) {
          // A JSON-RPC answer, whatever the status (2026-07-28 answers some errors with 400/404).
          this.#pending.settle(incoming.message);
          return;
        }
        if (status === 404 && this.#session !== undefined) {
          void this.close(`${this.label} ended the session`);
          return;
        }
        if (status === 200 && incoming?.kind === 'answer') {
          this.#log(`${this.label} answered request ${id} with the answer for ${JSON.stringify(incoming.message.id)} (dropped, never relayed)`);
        }
        const snippet = text.length > 200 ? `${text.slice(0, 200)}…` : text;
        fail(new UpstreamError('bad_answer', `${this.label} answered ${request.method} with HTTP ${status} and no JSON-RPC answer${snippet === '' ? '' : `: ${snippet}`}`, { status }));
      },
      (error: unknown) => fail(new UpstreamError('closed', `${this.label} broke off its answer (${(error as Error).message})`)),
    );
  }

  /** A message on the stream of request `id`. */
  #fromStream(id: number, incoming: Incoming): void {
    switch (incoming.kind) {
      case 'answer':
        if (incoming.message.id === id) this.#pending.settle(incoming.message);
        else this.#log(`${this.label} sent, on the stream of request ${id}, an answer for ${JSON.stringify(incoming.message.id)} (dropped, never relayed)`);
        return;
      case 'notification':
        if (incoming.message.method === 'notifications/progress') {
          if (!this.#pending.progress(incoming.message)) this.#log(`${this.label} sent progress for a token no request waiting has (dropped)`);
          return;
        }
        this.#pending.related(id, incoming.message);
        return;
      case 'request':
        this.#pending.related(id, incoming.message);
        return;
      case 'invalid':
        this.#log(`${this.label} sent ${incoming.reason} on a response stream (dropped)`);
    }
  }

  /** POST a notification or an answer: the server says 202. */
  #postOneWay(message: JSONRPCMessage, retry = true): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(new Error(this.#closed));
    return new Promise((resolve, reject) => {
      let answered = false;
      const outgoing = this.#request('POST', this.#headers(this.#options.era === 'modern' ? { 'mcp-protocol-version': '2026-07-28', ...('method' in message ? { 'mcp-method': message.method } : {}) } : undefined), (response) => {
        answered = true;
        response.resume();
        if (response.statusCode === 202 || response.statusCode === 200) resolve();
        else reject(new Error(`${this.label} refused the message with HTTP ${String(response.statusCode)}`));
        if ('method' in message && message.method === 'notifications/initialized' && response.statusCode === 202) this.#listen();
      }, !retry);
      outgoing.once('error', (error) => {
        if (retry && isStaleConnection(outgoing, error, answered)) this.#postOneWay(message, false).then(resolve, reject);
        else reject(error);
      });
      outgoing.end(JSON.stringify(message));
    });
  }

  /** Legacy: the GET stream where the server sends what belongs to no request (list changes, its own requests). */
  #listen(): void {
    if (this.#options.era !== 'legacy' || this.#closed !== undefined || this.#listening !== undefined) return;
    const headers = this.#headers();
    headers.accept = 'text/event-stream';
    delete headers['content-type'];
    const request = this.#request('GET', headers, (response) => {
      if (response.statusCode !== 200 || mediaType(response) !== 'text/event-stream') {
        response.resume(); // 405: the server offers no such stream
        return;
      }
      const parser = new SseParser(
        this.#options.maxMessageBytes,
        (data) => {
          if (data === '') return; // a priming event (see #response)
          const incoming = readText(data);
          if (incoming.kind === 'request' || incoming.kind === 'notification') this.onServerMessage?.(incoming.message);
          else this.#log(`${this.label} sent ${incoming.kind === 'answer' ? 'an answer' : incoming.reason} on its GET stream (dropped)`);
        },
        (bytes) => this.#log(`${this.label} sent an event of ${bytes} bytes on its GET stream, over --max-message-bytes (dropped)`),
      );
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => parser.push(chunk));
      response.once('close', () => {
        this.#listening = undefined;
      });
    });
    request.once('error', () => {
      this.#listening = undefined;
    });
    this.#listening = request;
    request.end();
  }

  #log(line: string): void {
    this.onLog?.(line);
  }
}

/**
 * Whether a request failed only because the kept-alive connection it was sent on had just been closed
 * by the server (reset before any answer began): the race every keep-alive client has with a server's
 * idle timeout, and more likely the longer the gateway's event loop lags. The server never read such
 * a request, so it is sent once more on a fresh connection (Node's documented remedy: `reusedSocket`).
 */
function isStaleConnection(outgoing: ClientRequest, error: Error, answered: boolean): boolean {
  return outgoing.reusedSocket && !answered && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
}

/** Read a whole body as text, or `undefined` when it is over `maxBytes` (then discarded as it streams). */
export function readBody(stream: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        return;
      }
      if (!over) chunks.push(chunk);
    });
    stream.once('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
    stream.once('aborted', () => reject(new Error('aborted')));
  });
}
