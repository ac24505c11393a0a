import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, RpcCode } from '../jsonrpc/errors.js';

/*
 * What a Streamable HTTP request must be before the gateway reads what it says (basic/transports):
 * from an allowed origin, to this host, with the right content types, and not too large.
 */

/** Answer with a JSON-RPC error with no id (the spec's shape for transport-level refusals). */
export function refuse(response: ServerResponse, status: number, code: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify(errorResponse(null, code, `basis-hooks: ${message}`));
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether `host` (an address the gateway listens on) is a loopback one. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Why a request's `Host` or `Origin` is refused (403), or `undefined`. DNS rebinding: a web page can
 * make a browser send requests to a name that resolves to 127.0.0.1; a gateway listening on loopback
 * therefore takes only loopback `Host` names, and an `Origin` only when it is a loopback one (a page
 * of this machine) or listed (`--allow-origin`). A gateway listening elsewhere takes only listed
 * origins. Requests without an `Origin` (not from a browser) pass this check.
 */
export function originProblem(request: IncomingMessage, options: { loopback: boolean; allowedOrigins: readonly string[] }): string | undefined {
  if (options.loopback) {
    const host = request.headers.host ?? '';
    if (!isLoopback(hostname(host))) return `Host ${JSON.stringify(host)} is not this machine (the gateway listens on loopback; DNS rebinding protection)`;
  }
  const origin = request.headers.origin;
  if (origin === undefined || options.allowedOrigins.includes(origin)) return undefined;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).hostname;
  } catch {
    originHost = undefined;
  }
  if (options.loopback && originHost !== undefined && isLoopback(originHost)) return undefined;
  return `Origin ${JSON.stringify(origin)} is not allowed (--allow-origin lists the origins that are)`;
}

/** The name part of a `Host` header (`[::1]:80` → `[::1]`, `localhost:80` → `localhost`). */
function hostname(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/** The media type of a header value, lower-case, without parameters. */
export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Why a POST's content types are refused — 415 or 406 — or `undefined`. */
export function postProblem(request: IncomingMessage): { status: number; message: string } | undefined {
  if (mediaType(request.headers['content-type']) !== 'application/json') {
    return { status: 415, message: 'Content-Type must be application/json' };
  }
  const accept = request.headers.accept ?? '';
  if (!/application\/json|\*\/\*/.test(accept) || !/text\/event-stream|\*\/\*/.test(accept)) {
    return { status: 406, message: 'Accept must list both application/json and text/event-stream' };
  }
  return undefined;
}

/**
 * Read a request body up to `maxBytes`: the text, or `undefined` when it is larger — refused as it
 * streams in (a `Content-Length` over the cap is refused before a byte is read), never buffered whole.
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    request.once('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.once('error', reject);
    request.once('aborted', () => reject(new Error('the client aborted the request')));
  });
}

/** The `413` for a body over the cap. */
export function tooLarge(response: ServerResponse, maxBytes: number): void {
  refuse(response, 413, RpcCode.InvalidRequest, `the message is larger than the gateway's --max-message-bytes (${maxBytes})`, { connection: 'close' });
}
