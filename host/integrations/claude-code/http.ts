import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contextFromCarrier } from '../../telemetry/propagation.js';
import { blockedBody, type ClaudeCodeBridge } from './bridge.js';

/** Options of {@link serveClaudeCode}. */
export interface HttpOptions {
  readonly port: number;
  /** Default 127.0.0.1: the hooks decide what an agent may do, so only this machine may ask. */
  readonly host?: string;
  /** Largest request body accepted, in bytes (default 64 MiB: a PostToolUse body carries the tool's whole output). */
  readonly maxBodyBytes?: number;
}

/** The default loopback address. */
export const DEFAULT_HOST = '127.0.0.1' as const;
const DEFAULT_MAX_BODY = 64 * 1024 * 1024;

/**
 * Serve the bridge as Claude Code's `type: "http"` hook: each POST body is one event, the response
 * the JSON answer (`{}` for no decision). Requests are handled concurrently, each with its own chain
 * run. Claude Code treats a non-2xx answer, a refused connection or a timeout as a non-blocking error
 * (the call proceeds), so everything the bridge cannot decide — a body it cannot read, one over the
 * size cap — is answered 200 with a block. Only a request that is not a POST gets 405.
 *
 * Resolves once listening; `close()` stops accepting and waits for the calls in flight.
 */
export async function serveClaudeCode(bridge: ClaudeCodeBridge, options: HttpOptions): Promise<{ readonly server: Server; readonly url: string; close(): Promise<void> }> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const server = createServer((request, response) => void handle(bridge, request, response, maxBody));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? DEFAULT_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function handle(bridge: ClaudeCodeBridge, request: IncomingMessage, response: ServerResponse, maxBody: number): Promise<void> {
  if (request.method !== 'POST') {
    respond(response, 405, { error: 'POST a Claude Code hook event' });
    request.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > maxBody) {
        tooLarge = true;
        break;
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    respond(response, 200, blockedBody(`could not read the request body (${error instanceof Error ? error.message : String(error)})`));
    return;
  }
  if (tooLarge) {
    respond(response, 200, blockedBody(`the hook event is larger than ${maxBody} bytes`));
    request.destroy();
    return;
  }
  // A caller that sends W3C trace context (`traceparent`) gets the chain's span in its trace.
  const parent = contextFromCarrier({ traceparent: request.headers.traceparent, tracestate: request.headers.tracestate });
  const answer = await bridge.handle(Buffer.concat(chunks).toString('utf8'), undefined, parent);
  respond(response, 200, answer.kind === 'blocked' ? blockedBody(answer.reason) : (answer.output ?? {}));
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
