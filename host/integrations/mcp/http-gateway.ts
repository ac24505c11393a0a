import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Conversation, type ClientPeer } from './conversation.js';
import { Exchange, ListenStream, modernStatus } from './downstream/exchange.js';
import { isLoopback, originProblem, postProblem, readRequestBody, refuse, tooLarge } from './downstream/http-checks.js';
import { SessionPeer } from './downstream/session.js';
import { checkModernMeta, declaredVersion, LEGACY_VERSIONS, MODERN_VERSIONS } from './era.js';
import { gatewayParts, targetOf, type GatewayCommonOptions, type GatewayOptions } from './gateway.js';
import { isVerified, type TokenVerifier, type VerifiedToken } from './identity.js';
import { errorResponse, RpcCode } from './jsonrpc/errors.js';
import { readText, type Incoming } from './jsonrpc/read.js';
import { headerMismatch } from './mirror-headers.js';
import { describeExit } from './upstream/stdio-link.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './upstream/server-process.js';
import type { OpenUpstream } from './upstream/connect.js';

/** How the HTTP gateway authenticates clients (OAuth 2.1 resource server, 2025-11-25 basic/authorization). */
export interface HttpAuth {
  readonly verifier: TokenVerifier;
  /** The gateway's canonical resource URL (what tokens' audience names; in the resource metadata). */
  readonly resource: string;
  /** The authorization servers that issue tokens for it (the resource metadata's `authorization_servers`). */
  readonly authorizationServers: readonly string[];
}

/** Options of {@link McpHttpGateway.start}: the Streamable HTTP front. */
export interface HttpGatewayOptions extends GatewayCommonOptions, Pick<GatewayOptions, 'server' | 'upstream'> {
  /** Address to listen on (default 127.0.0.1: only this machine). */
  readonly host?: string | undefined;
  /** Port (0: any free one). */
  readonly port: number;
  /** The MCP endpoint's path (default `/mcp`). */
  readonly path?: string | undefined;
  /** Origins whose browser requests are let in (default none: any request with an `Origin` is refused). */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Bearer tokens required (`--jwks`). */
  readonly auth?: HttpAuth | undefined;
  /** Most 2025-11-25 sessions open at once (default 1000). */
  readonly maxSessions?: number | undefined;
  /** A session with no traffic and nothing open for this long is ended (default 30 min). */
  readonly sessionIdleMs?: number | undefined;
  /** Most requests handled at once, all clients together; more get 503 (default 4096). */
  readonly maxInFlight?: number | undefined;
}

interface Session {
  readonly id: string;
  readonly peer: SessionPeer;
  readonly conversation: Conversation;
  readonly upstream: OpenUpstream;
  /** With tokens: the agent that opened it (only it may use it). */
  readonly agentId: string | undefined;
}

const MCP_PATH = '/mcp';

/**
 * The MCP gateway over Streamable HTTP, for many clients: 2025-11-25 sessions (`initialize`,
 * `Mcp-Session-Id`, a GET stream, DELETE) and 2026-07-28 requests (stateless, `_meta` per request,
 * mirrored headers checked against the body). Each 2025-11-25 session gets a connection of its own to
 * the server (a process, for a stdio server; an upstream session, for an HTTP one), so the client's
 * own `initialize` reaches it; 2026-07-28 requests share one connection and keep nothing between
 * them, so a replica behind a load balancer can take any of them.
 *
 * @example
 * const gateway = await McpHttpGateway.start({ runner, workspace: '/srv', port: 8080, upstream: { url: new URL('https://tools.example/mcp') } });
 * console.log(gateway.url); // http://127.0.0.1:8080/mcp
 */
export class McpHttpGateway {
  readonly #options: HttpGatewayOptions;
  readonly #parts: ReturnType<typeof gatewayParts>;
  readonly #server: Server;
  readonly #sessions = new Map<string, Session>();
  readonly #path: string;
  readonly #loopback: boolean;
  readonly #maxBytes: number;
  readonly #reaper: NodeJS.Timeout;
  #shared: Promise<OpenUpstream> | undefined;
  #inFlight = 0;
  #closed = false;
  /** `http://host:port/mcp`. */
  url = '';

  private constructor(options: HttpGatewayOptions, parts: ReturnType<typeof gatewayParts>, shared: OpenUpstream) {
    this.#options = options;
    this.#parts = parts;
    this.#path = options.path ?? MCP_PATH;
    this.#loopback = isLoopback(options.host ?? '127.0.0.1');
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#adopt(shared);
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        this.#log(`internal error: ${(error as Error).message}`);
        refuse(response, 500, RpcCode.InternalError, 'internal error');
      });
    });
    const idle = options.sessionIdleMs ?? 30 * 60 * 1000;
    this.#reaper = setInterval(() => this.#reap(idle), Math.min(idle, 60_000));
    this.#reaper.unref();
  }

  /** Start the server's shared connection (its era probed), then listen. Rejects with nothing left running. */
  static async start(options: HttpGatewayOptions): Promise<McpHttpGateway> {
    const parts = gatewayParts(options, targetOf(options));
    const shared = await parts.upstreams.open(false);
    const gateway = new McpHttpGateway(options, parts, shared);
    try {
      await new Promise<void>((resolve, reject) => {
        gateway.#server.once('error', reject);
        gateway.#server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
      });
    } catch (error) {
      await gateway.close();
      throw error;
    }
    const address = gateway.#server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    gateway.url = `http://${host}:${address.port}${gateway.#path}`;
    return gateway;
  }

  /** Sessions open now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** The shared connection (2026-07-28 requests): reopened when it went away (a stdio server that exited). */
  #sharedUpstream(): Promise<OpenUpstream> {
    this.#shared ??= this.#parts.upstreams.open(false).then((open) => this.#adopt(open));
    this.#shared.catch(() => (this.#shared = undefined));
    return this.#shared;
  }

  #adopt(open: OpenUpstream): OpenUpstream {
    this.#shared = Promise.resolve(open);
    // What the server sends outside any request goes nowhere: 2026-07-28 clients have no stream for it.
    const sink = this.#conversation(open, { send: () => undefined, takesRequests: false });
    open.session.link.onServerMessage = (message) => sink.fromServer(message);
    void open.process?.exited.then((exit) => {
      this.#log(`the shared MCP server ${describeExit(exit)}; the next 2026-07-28 request starts another`);
      this.#shared = undefined;
    });
    return open;
  }

  #conversation(open: OpenUpstream, peer: ClientPeer): Conversation {
    return new Conversation({
      upstream: open.session,
      peer,
      hooks: this.#parts.hooks,
      exposure: this.#parts.exposure,
      identity: { agentId: this.#options.agentId, workspace: this.#options.workspace },
      seal: this.#parts.seal,
      record: this.#options.runner.audited ? (event) => this.#options.runner.record(event) : undefined,
      unknownMethods: this.#options.unknownMethods,
      log: (line) => this.#log(line),
    });
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.url ?? '/';
    // The endpoint itself (nearly every request) without parsing a URL; anything else normalised first.
    const path = target === this.#path || target.startsWith(`${this.#path}?`) ? this.#path : new URL(target, 'http://gateway').pathname;
    const auth = this.#options.auth;
    if (path.startsWith('/.well-known/oauth-protected-resource') && auth !== undefined && request.method === 'GET') {
      const body = JSON.stringify({ resource: auth.resource, authorization_servers: auth.authorizationServers, bearer_methods_supported: ['header'], resource_name: 'basis-hooks MCP gateway' });
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(body);
      return;
    }
    if (path !== this.#path) return refuse(response, 404, RpcCode.InvalidRequest, `no MCP endpoint at ${JSON.stringify(path)} (it is at ${this.#path})`);
    const origin = originProblem(request, { loopback: this.#loopback, allowedOrigins: this.#options.allowedOrigins ?? [] });
    if (origin !== undefined) return refuse(response, 403, RpcCode.InvalidRequest, origin);
    let token: VerifiedToken | undefined;
    if (auth !== undefined) {
      const verified = await auth.verifier.verify(request.headers.authorization);
      if (!isVerified(verified)) {
        const resource = new URL(auth.resource);
        const metadata = `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname === '/' ? '' : resource.pathname}`;
        const challenge = `Bearer resource_metadata="${metadata}"${verified.kind === 'invalid' ? `, error="invalid_token", error_description="${verified.description.replaceAll('"', "'")}"` : ''}`;
        request.resume();
        return refuse(response, 401, RpcCode.InvalidRequest, `unauthorized: ${verified.description}`, { 'www-authenticate': challenge });
      }
      token = verified;
    }
    switch (request.method) {
      case 'POST':
        return this.#post(request, response, token);
      case 'GET':
        return this.#get(request, response, token);
      case 'DELETE':
        return this.#delete(request, response, token);
      default:
        request.resume();
        return refuse(response, 405, RpcCode.InvalidRequest, `method ${String(request.method)} not allowed`, { allow: 'GET, POST, DELETE' });
    }
  }

  async #post(request: IncomingMessage, response: ServerResponse, token: VerifiedToken | undefined): Promise<void> {
    const problem = postProblem(request);
    if (problem !== undefined) {
      request.resume();
      return refuse(response, problem.status, RpcCode.InvalidRequest, problem.message);
    }
    const text = await readRequestBody(request, this.#maxBytes);
    if (text === undefined) return tooLarge(response, this.#maxBytes);
    const incoming = readText(text);
    if (incoming.kind === 'invalid') {
      this.#log(`a client sent ${incoming.reason}`);
      const answer = incoming.answer ?? { id: null, code: RpcCode.InvalidRequest };
      return this.#json(response, 400, errorResponse(answer.id, answer.code, `basis-hooks: ${incoming.reason}`));
    }
    if (incoming.kind === 'request' && this.#inFlight >= (this.#options.maxInFlight ?? 4096)) {
      return this.#json(response, 503, errorResponse(incoming.message.id, RpcCode.ConnectionClosed, 'basis-hooks: the gateway is handling as many requests as it takes; retry shortly'), { 'retry-after': '1' });
    }
    const headerVersion = request.headers['mcp-protocol-version'];
    const modern = (typeof headerVersion === 'string' && MODERN_VERSIONS.includes(headerVersion)) || (incoming.kind === 'request' && declaredVersion(incoming.message) !== undefined);
    if (modern) return this.#modernPost(request, response, incoming, token);
    return this.#legacyPost(request, response, incoming, token);
  }

  /** A 2026-07-28 POST: one request, its own conversation over the shared connection. */
  async #modernPost(request: IncomingMessage, response: ServerResponse, incoming: Incoming, token: VerifiedToken | undefined): Promise<void> {
    if (incoming.kind !== 'request') {
      // 2026-07-28 defines no client-to-server notification over HTTP (closing a stream cancels).
      response.writeHead(202).end();
      return;
    }
    const message = incoming.message;
    const meta = checkModernMeta(message);
    if (meta !== undefined) return this.#json(response, 400, { jsonrpc: '2.0', id: message.id, error: meta });
    const name = message.method === 'tools/call' ? (message.params as { name?: unknown } | undefined)?.name : undefined;
    const params = typeof name === 'string' ? (this.#parts.upstreams.catalog.paramHeaders(name) ?? []) : [];
    const mismatch = headerMismatch(request.headers, message, params);
    if (mismatch !== undefined) return this.#json(response, 400, errorResponse(message.id, RpcCode.HeaderMismatch, `Header mismatch: ${mismatch}`));
    let shared: OpenUpstream;
    try {
      shared = await this.#sharedUpstream();
    } catch (error) {
      return this.#json(response, 502, errorResponse(message.id, RpcCode.ConnectionClosed, `basis-hooks: the MCP server cannot be reached: ${(error as Error).message}`));
    }
    const exchange = new Exchange(message.id, response, { status: modernStatus });
    const conversation = this.#conversation(shared, { send: (m) => void exchange.send(m), takesRequests: false });
    // Closing the response stream is 2026-07-28's cancellation.
    response.once('close', () => {
      if (!exchange.answered) conversation.clientGone();
    });
    this.#inFlight++;
    try {
      conversation.receive(incoming, { token });
      await conversation.settled();
    } finally {
      this.#inFlight--;
    }
    // Every request is answered, unless its client went away: never leave a response hanging.
    if (!exchange.answered && !response.destroyed) refuse(response, 500, RpcCode.InternalError, 'the request ended without an answer');
  }

  /** A 2025-11-25 POST: to its session (an `initialize` opens one). */
  async #legacyPost(request: IncomingMessage, response: ServerResponse, incoming: Incoming, token: VerifiedToken | undefined): Promise<void> {
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !LEGACY_VERSIONS.includes(version)) {
      return refuse(response, 400, RpcCode.UnsupportedProtocolVersion, `unsupported protocol version ${JSON.stringify(version)} (supported: ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', ')})`);
    }
    const sessionId = request.headers['mcp-session-id'];
    let session: Session | undefined;
    if (typeof sessionId !== 'string') {
      if (incoming.kind !== 'request' || incoming.message.method !== 'initialize') {
        return refuse(response, 400, RpcCode.InvalidRequest, 'an Mcp-Session-Id header is required (open a session with initialize first)');
      }
      session = await this.#open(response, incoming.message.id, token);
      if (session === undefined) return;
    } else {
      session = this.#sessions.get(sessionId);
      if (session === undefined) return refuse(response, 404, -32001, 'session not found (it ended, or belongs to another replica: initialize again)');
      if (session.agentId !== undefined && session.agentId !== token?.agentId) return refuse(response, 403, RpcCode.InvalidRequest, 'this session belongs to another agent');
      if (incoming.kind === 'request' && incoming.message.method === 'initialize') return refuse(response, 400, RpcCode.InvalidRequest, 'the session is already initialized');
    }
    if (incoming.kind !== 'request') {
      session.peer.lastActive = Date.now();
      session.conversation.receive(incoming, { token });
      response.writeHead(202).end();
      return;
    }
    const exchange = new Exchange(incoming.message.id, response, { headers: { 'mcp-session-id': session.id } });
    session.peer.attach(exchange);
    this.#inFlight++;
    response.once('close', () => this.#inFlight--);
    session.conversation.receive(incoming, { token });
  }

  async #open(response: ServerResponse, id: string | number, token: VerifiedToken | undefined): Promise<Session | undefined> {
    if (this.#sessions.size >= (this.#options.maxSessions ?? 1000)) {
      this.#json(response, 503, errorResponse(id, RpcCode.ConnectionClosed, 'basis-hooks: the gateway has as many sessions open as it takes (--max-sessions); retry later'), { 'retry-after': '5' });
      return undefined;
    }
    let upstream: OpenUpstream;
    try {
      upstream = await this.#parts.upstreams.open(true);
    } catch (error) {
      this.#json(response, 502, errorResponse(id, RpcCode.ConnectionClosed, `basis-hooks: the MCP server cannot be started or reached: ${(error as Error).message}`));
      return undefined;
    }
    const peer = new SessionPeer((line) => this.#log(line));
    const conversation = this.#conversation(upstream, peer);
    upstream.session.link.onServerMessage = (message) => conversation.fromServer(message);
    const session: Session = { id: randomUUID(), peer, conversation, upstream, agentId: token?.agentId };
    this.#sessions.set(session.id, session);
    void upstream.process?.exited.then((exit) => {
      if (!this.#sessions.has(session.id)) return;
      this.#sessions.delete(session.id);
      conversation.upstreamGone(`the MCP server ${describeExit(exit)} before answering`);
      void conversation.settled().then(() => peer.close());
    });
    return session;
  }

  #get(request: IncomingMessage, response: ServerResponse, token: VerifiedToken | undefined): void {
    request.resume();
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') return refuse(response, 405, RpcCode.InvalidRequest, 'GET opens a 2025-11-25 session\'s stream: it needs an Mcp-Session-Id (2026-07-28 has no GET stream)', { allow: 'POST' });
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return refuse(response, 404, -32001, 'session not found');
    if (session.agentId !== undefined && session.agentId !== token?.agentId) return refuse(response, 403, RpcCode.InvalidRequest, 'this session belongs to another agent');
    if (!/text\/event-stream|\*\/\*/.test(request.headers.accept ?? '')) return refuse(response, 406, RpcCode.InvalidRequest, 'Accept must list text/event-stream');
    const stream = new ListenStream(response, { 'mcp-session-id': session.id }, 25_000);
    if (!session.peer.listen(stream)) {
      stream.end();
      return;
    }
  }

  async #delete(request: IncomingMessage, response: ServerResponse, token: VerifiedToken | undefined): Promise<void> {
    request.resume();
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') return refuse(response, 405, RpcCode.InvalidRequest, 'DELETE ends a 2025-11-25 session: it needs an Mcp-Session-Id', { allow: 'POST' });
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return refuse(response, 404, -32001, 'session not found');
    if (session.agentId !== undefined && session.agentId !== token?.agentId) return refuse(response, 403, RpcCode.InvalidRequest, 'this session belongs to another agent');
    await this.#end(session);
    response.writeHead(200).end();
  }

  async #end(session: Session): Promise<void> {
    if (!this.#sessions.delete(session.id)) return;
    session.conversation.clientGone();
    await session.upstream.close();
    await session.conversation.settled();
    session.peer.close();
  }

  #reap(idleMs: number): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      if (!session.peer.busy && now - session.peer.lastActive > idleMs) {
        this.#log(`ended session ${session.id}: idle for more than ${idleMs} ms`);
        void this.#end(session);
      }
    }
  }

  #json(response: ServerResponse, status: number, message: JSONRPCMessage, headers: Readonly<Record<string, string>> = {}): void {
    const body = JSON.stringify(message);
    response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  }

  /** Stop listening, end every session (their servers stopped) and the shared connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#reaper);
    const closing = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await Promise.all([...this.#sessions.values()].map((session) => this.#end(session)));
    const shared = await this.#shared?.catch(() => undefined);
    await shared?.close();
    this.#parts.upstreams.destroy();
    await closing;
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }
}
