import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TraceCarrier } from '../../telemetry/propagation.js';
import { bearerMatches } from './token.js';

/*
 * The HTTP front of every hook server (the Claude Code bridge's --http, `basis-hooks serve` on a Unix
 * socket or loopback): what reaches the chain, and what it may cost. A hostile local process — or a web
 * page in the user's browser, which can POST to loopback — must neither reach the chain nor stall the
 * answer to the agent's own events, whose agents treat a late answer as "proceed".
 */

/** Why a request was refused before its body was read. Closed: tests and logs switch on it. */
export type RefusalCode =
  /** Not the method or path an agent uses. */
  | 'method'
  /** A browser request (any `Origin` header): agents never send one. */
  | 'origin'
  /** A `Host` that is not a loopback name (DNS rebinding). */
  | 'host'
  /** Not `application/json`: a browser's "simple" form/text POST, or not an event. */
  | 'content_type'
  /** No bearer token, or the wrong one. */
  | 'token'
  /** Announced or streamed past the size cap. */
  | 'too_large'
  /** Every slot busy and the queue full. */
  | 'busy'
  /** The body did not arrive within its deadline (a slow or stalled sender). */
  | 'slow'
  /** The connection failed while the body was read. */
  | 'aborted';

/** A request as the handler sees it: the path, the body text (UTF-8), and its W3C trace context headers. */
export interface HookRequestIn {
  readonly path: string;
  readonly body: string;
  /** `traceparent` / `tracestate` as sent (unchecked: `contextFromCarrier` parses them). */
  readonly trace: TraceCarrier;
}

/** What the handler (or a refusal) answers: a status and a JSON body, or `raw` text sent as it is. */
export interface HookResponseOut {
  readonly status: number;
  readonly body?: unknown;
  readonly raw?: string;
}

/** Options of {@link serveHookHttp}. */
export interface HookHttpOptions {
  /** Where to listen: a TCP port (and host, loopback by default) or a Unix socket path. */
  readonly listen: { readonly port: number; readonly host?: string } | { readonly socket: string };
  /** Requests must carry `Authorization: Bearer <token>` (absent: no token is asked for). */
  readonly token?: string;
  /** Largest body, in bytes; larger ones are refused from their `Content-Length` or while streaming, never buffered. */
  readonly maxBodyBytes: number;
  /** Requests read and handled at once (default 8); more wait in a queue. */
  readonly maxConcurrent?: number;
  /** Requests allowed to wait for a slot (default 64); beyond it they are refused as `busy` at once. */
  readonly maxQueued?: number;
  /** Longest wait for a slot, ms (default 5,000); then the request is refused as `busy`. */
  readonly maxWaitMs?: number;
  /** Time to send the headers, ms (default 5,000): a slowloris connection is cut then. */
  readonly headersTimeoutMs?: number;
  /** Time to send the body once it is being read, ms (default 10,000). */
  readonly bodyTimeoutMs?: number;
  /** Paths answered (default: any). A path outside is `method`. */
  readonly acceptPath?: (path: string) => boolean;
  /** Run one accepted event. Must not reject (an error is answered 500). */
  readonly handle: (request: HookRequestIn) => Promise<HookResponseOut>;
  /**
   * The answer to a refused request. A refusal the agent itself could meet (a wrong token, a body over
   * the cap, a full queue) must *block* in the agent's terms — an agent treats a non-2xx answer as
   * "proceed" — so this is the dialect's block body with status 200; a request no agent sends
   * (`origin`, `host`, `content_type`, `method`) gets a plain 4xx.
   */
  readonly refuse: (code: RefusalCode, message: string, path: string) => HookResponseOut;
  /** Told of every refusal (a log line); optional. */
  readonly onRefusal?: (code: RefusalCode, message: string) => void;
}

/** A listening hook server. */
export interface HookHttpServer {
  readonly server: Server;
  /** `http://127.0.0.1:PORT/`, or `unix:/path` for a socket. */
  readonly url: string;
  /** Requests being read or handled, and waiting. */
  load(): { readonly active: number; readonly queued: number };
  /** Stop accepting, answer what is in flight, then resolve. */
  close(): Promise<void>;
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)(?::\d{1,5})?$/i;

/** Whether a `Host` header names this machine's loopback (what an agent's own request carries). */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host.trim());
}

/** Whether a `Content-Type` is JSON (`application/json`, any parameters). */
export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && /^application\/json\s*(?:;.*)?$/i.test(type.trim());
}

/**
 * Serve hook events over HTTP with every limit a hostile local client could otherwise abuse:
 *
 * - **at the headers**, before a byte of the body is read: a method or path the agents do not use,
 *   any `Origin` (a browser), a non-loopback `Host` (DNS rebinding), a non-JSON `Content-Type`, a
 *   missing or wrong bearer token, a `Content-Length` over the cap — each refused, the connection
 *   closed;
 * - **while streaming**: a chunked body is counted as it arrives and refused at the cap, never buffered
 *   past it; a body that does not arrive within `bodyTimeoutMs` is refused as `slow`;
 * - **concurrency**: at most `maxConcurrent` requests read or handled at once; the next `maxQueued`
 *   wait their turn (their bodies stay in the kernel's buffers, unread) for at most `maxWaitMs`;
 *   beyond that, or after that, `busy`;
 * - **slowloris**: headers must arrive within `headersTimeoutMs`.
 *
 * So the event loop's work per request is bounded by the cap (parsing included: the handler parses
 * at most `maxBodyBytes`), the memory by `maxConcurrent × maxBodyBytes`, and an event from the agent
 * is answered within `maxWaitMs` + its own read and chain time — with a block, at worst.
 */
export async function serveHookHttp(options: HookHttpOptions): Promise<HookHttpServer> {
  const maxConcurrent = options.maxConcurrent ?? 8;
  const maxQueued = options.maxQueued ?? 64;
  const maxWait = options.maxWaitMs ?? 5_000;
  const bodyTimeout = options.bodyTimeoutMs ?? 10_000;
  let active = 0;
  const queue: Array<(granted: boolean) => void> = [];
  // A slot, or false when none came within maxWait (or the queue is full): the wait is bounded too,
  // so an event from the agent is answered — with a block at worst — long before the agent gives up.
  const acquire = (): Promise<boolean> => {
    if (active < maxConcurrent) {
      active++;
      return Promise.resolve(true);
    }
    if (queue.length >= maxQueued) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter = (granted: boolean): void => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        resolve(false);
      }, maxWait);
      queue.push(waiter);
    });
  };
  const release = (): void => {
    const next = queue.shift();
    if (next !== undefined) next(true);
    else active--;
  };

  const refuse = (response: ServerResponse, request: IncomingMessage, code: RefusalCode, message: string): void => {
    options.onRefusal?.(code, message);
    send(response, options.refuse(code, message, pathOf(request)));
    // Whatever body follows is discarded as it arrives (never buffered), so the client — the agent
    // itself, for a wrong token or an event over the cap — reads this answer instead of a reset; a
    // sender that never finishes is cut by the server's request timeout.
    request.resume();
  };

  const server = createServer({ headersTimeout: options.headersTimeoutMs ?? 5_000, requestTimeout: bodyTimeout + (options.headersTimeoutMs ?? 5_000) }, (request, response) => {
    void serve(request, response);
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const gate = checkHeaders(request, options);
    if (gate !== undefined) {
      refuse(response, request, gate.code, gate.message);
      return;
    }
    if (request.method === 'GET') {
      send(response, { status: 200, body: { ok: true } });
      return;
    }
    if (!(await acquire())) {
      refuse(response, request, 'busy', `the server is busy (${maxConcurrent} events in flight, ${queue.length} waiting): try again`);
      return;
    }
    try {
      const body = await readBody(request, options.maxBodyBytes, bodyTimeout);
      if (!body.ok) {
        refuse(response, request, body.code, body.message);
        return;
      }
      let answer: HookResponseOut;
      try {
        answer = await options.handle({ path: pathOf(request), body: body.text, trace: { traceparent: request.headers.traceparent, tracestate: request.headers.tracestate } });
      } catch (error) {
        answer = options.refuse('aborted', `internal error: ${error instanceof Error ? error.message : String(error)}`, pathOf(request));
      }
      send(response, answer);
    } finally {
      release();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = (): void => {
      server.off('error', reject);
      resolve();
    };
    if ('socket' in options.listen) server.listen(options.listen.socket, done);
    else server.listen(options.listen.port, options.listen.host ?? '127.0.0.1', done);
  });
  let url: string;
  if ('socket' in options.listen) url = `unix:${options.listen.socket}`;
  else {
    const address = server.address() as AddressInfo;
    url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
  }
  return {
    server,
    url,
    load: () => ({ active, queued: queue.length }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The first reason the headers alone refuse a request, or undefined. */
function checkHeaders(request: IncomingMessage, options: HookHttpOptions): { code: RefusalCode; message: string } | undefined {
  const path = pathOf(request);
  const health = request.method === 'GET' && (path === '/healthz' || path.endsWith('/healthz'));
  if (request.method !== 'POST' && !health) return { code: 'method', message: `${String(request.method)} is not accepted: POST a hook event` };
  if (!health && options.acceptPath !== undefined && !options.acceptPath(path)) return { code: 'method', message: `no hook endpoint at ${path}` };
  if (request.headers.origin !== undefined) return { code: 'origin', message: `a request with an Origin header (${request.headers.origin}) comes from a browser page, not an agent` };
  if (!isLoopbackHost(request.headers.host)) return { code: 'host', message: `Host ${JSON.stringify(request.headers.host ?? '')} is not a loopback name (127.0.0.1, localhost, [::1])` };
  if (health) return undefined;
  if (!isJsonContentType(request.headers['content-type'])) {
    return { code: 'content_type', message: `Content-Type ${JSON.stringify(request.headers['content-type'] ?? '')} is not application/json` };
  }
  if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
    return { code: 'token', message: request.headers.authorization === undefined ? 'no bearer token (Authorization: Bearer <token>)' : 'wrong bearer token' };
  }
  const length = request.headers['content-length'];
  if (length !== undefined && Number(length) > options.maxBodyBytes) {
    return { code: 'too_large', message: `the event is ${length} bytes, more than the ${options.maxBodyBytes}-byte cap` };
  }
  return undefined;
}

type Body = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly code: RefusalCode; readonly message: string };

/** Read a body up to `max` bytes within `timeoutMs`; never buffers past the cap. */
function readBody(request: IncomingMessage, max: number, timeoutMs: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (body: Body): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onAborted);
      resolve(body);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) {
        finish({ ok: false, code: 'too_large', message: `the event is more than the ${max}-byte cap` });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, text: Buffer.concat(chunks, size).toString('utf8') });
    const onError = (error: Error): void => finish({ ok: false, code: 'aborted', message: `could not read the request body (${error.message})` });
    const onAborted = (): void => finish({ ok: false, code: 'aborted', message: 'the client went away before the body ended' });
    const timer = setTimeout(() => finish({ ok: false, code: 'slow', message: `the body did not arrive within ${timeoutMs} ms` }), timeoutMs);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onAborted);
  });
}

function send(response: ServerResponse, answer: HookResponseOut): void {
  if (response.headersSent || response.destroyed) return;
  const text = answer.raw ?? JSON.stringify(answer.body ?? null);
  const type = answer.raw === undefined ? 'application/json' : 'text/plain; charset=utf-8';
  response.writeHead(answer.status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}
