import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayAuditEvent } from '../../contract/audit.js';
import { checkModernMeta, declaredVersion } from './era.js';
import type { Exposure } from './expose.js';
import { resolveIdentity, type IdentityDefaults, type VerifiedToken } from './identity.js';
import { errorResponse, RpcCode } from './jsonrpc/errors.js';
import { IdMinter, idKey, showId } from './jsonrpc/ids.js';
import { judgeMethod, type UnknownMethods } from './jsonrpc/methods.js';
import type { Incoming, JSONRPCAnswer } from './jsonrpc/read.js';
import { Requests, type RequestContext } from './requests.js';
import type { TaskSeal } from './task-handles.js';
import type { Identity, ToolHooks } from './tool-hooks.js';
import { isUpstreamError, UpstreamError, type Answer, type Related } from './upstream/link.js';
import type { UpstreamSession } from './upstream/session.js';

/** The client end of a conversation: where the gateway's messages to the client go. */
export interface ClientPeer {
  /**
   * Send `message` to the client. `related` is the client request it belongs to (its answer, or a
   * notification or server request sent while it runs): Streamable HTTP puts it on that request's
   * response stream; stdio has one stream for everything.
   */
  send(message: JSONRPCMessage, related?: RequestId): void;
  /**
   * Whether the client can be sent requests (sampling, elicitation, roots). A 2026-07-28 client
   * cannot: such a request from the server is refused, answered with an error.
   */
  readonly takesRequests: boolean;
}

/** Options of a {@link Conversation}. */
export interface ConversationOptions {
  readonly upstream: UpstreamSession;
  readonly peer: ClientPeer;
  readonly hooks: ToolHooks;
  readonly exposure: Exposure;
  /** The gateway's `--agent-id` / `--workspace`. */
  readonly identity: IdentityDefaults;
  /** Seals 2026-07-28 task handles (shared by a gateway's conversations, and its replicas). */
  readonly seal: TaskSeal;
  /** Adds the gateway's own events to the audit stream. */
  readonly record?: ((event: GatewayAuditEvent) => void) | undefined;
  /** What to do with methods in none of the gateway's tables (default `refuse`). */
  readonly unknownMethods?: UnknownMethods | undefined;
  readonly log: (line: string) => void;
}

/** How a message arrived (HTTP: the verified token of its POST). */
export interface Arrival {
  readonly token?: VerifiedToken | undefined;
}

/** One client request the gateway has not answered yet. */
interface InFlight {
  readonly id: RequestId;
  readonly abort: AbortController;
  readonly token: VerifiedToken | undefined;
  /** pre: its pre chain runs (the server has not seen it); server: the server has it; post: its post chain runs. */
  stage: 'pre' | 'server' | 'post';
  /** The client cancelled it (or went away): it gets no answer. */
  cancelled: boolean;
  answered: boolean;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The JSON-RPC error a client gets for a call that got no answer from the server. */
function upstreamFailure(error: UpstreamError): Answer {
  const code = error.code === 'timeout' ? RpcCode.RequestTimeout : error.code === 'bad_answer' ? RpcCode.InternalError : RpcCode.ConnectionClosed;
  return { error: { code, message: `basis-hooks: ${error.message}` } };
}

/**
 * One client's conversation with the MCP server through the gateway: a stdio client, a Streamable
 * HTTP session (2025-11-25), or one 2026-07-28 request. It decides what crosses, in which direction,
 * under which id (what each request does is {@link Requests}'):
 *
 * - **Only what it understands is forwarded.** Requests and notifications are judged against the
 *   method tables ({@link judgeMethod}): a notification carrying a request method (a `tools/call`
 *   without an id) is dropped and logged, never forwarded; an unknown method is refused (or, when
 *   the operator chose `forward`, passed through unhooked).
 * - **One answer per request, to the request it answers.** A client request whose id is already in
 *   flight is refused (`-32600`) and never forwarded. Requests reach the server under ids the link
 *   mints, so an answer can only ever settle the request the gateway sent under that id; anything
 *   else the server sends as an answer is dropped and logged. The server's own requests reach the
 *   client under ids minted here, and the client's answers go back only to a server request still
 *   waiting.
 */
export class Conversation {
  readonly #options: ConversationOptions;
  readonly #requests: Requests;
  readonly #inFlight = new Map<string, InFlight>();
  /** Server → client requests awaiting the client's answer: our id's key → the server's id. */
  readonly #serverRequests = new Map<string, RequestId>();
  /** The same, the other way: the server's id's key → our id (to relay its cancellations). */
  readonly #serverRequestIds = new Map<string, number>();
  /** The gateway's own requests to the client (a 2026-07-28 server's input requests, translated): our id's key → who waits. */
  readonly #ownRequests = new Map<string, (answer: Answer) => void>();
  readonly #serverIds = new IdMinter();
  readonly #work = new Set<Promise<void>>();
  #closing: string | undefined;

  constructor(options: ConversationOptions) {
    this.#options = options;
    this.#requests = new Requests(options);
  }

  /** Requests not answered yet. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  // ── from the client ──────────────────────────────────────────────────────────────────────────────

  /** A message from the client. */
  receive(incoming: Incoming, arrival: Arrival = {}): void {
    switch (incoming.kind) {
      case 'request':
        this.#request(incoming.message, arrival);
        return;
      case 'notification':
        this.#notification(incoming.message);
        return;
      case 'answer':
        this.#clientAnswer(incoming.message);
        return;
      case 'invalid':
        this.#log(`the client sent ${incoming.reason}`);
        if (incoming.answer !== undefined) this.#options.peer.send(errorResponse(incoming.answer.id, incoming.answer.code, `basis-hooks: ${incoming.reason}`));
    }
  }

  /** The answer a request would get before any work: a refusal, or `undefined` to go on. */
  #refusal(request: JSONRPCRequest): Answer | undefined {
    const refuse = (code: number, message: string): Answer => ({ error: { code, message: `basis-hooks: ${message}` } });
    if (this.#closing !== undefined) return refuse(RpcCode.ConnectionClosed, this.#closing);
    const verdict = judgeMethod('client', request.method, true);
    if (verdict.kind === 'misused') return refuse(RpcCode.InvalidRequest, `${verdict.why}; refused`);
    if (verdict.kind === 'wrong_direction') return refuse(RpcCode.MethodNotFound, `${verdict.why}; refused`);
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') {
      this.#log(`refused the client's request for unknown method "${request.method}"`);
      return refuse(RpcCode.MethodNotFound, `the gateway does not know the method "${request.method}" and refuses what it cannot check (its operator can pass unknown methods through with --unknown-methods forward)`);
    }
    if (this.#inFlight.has(idKey(request.id))) {
      this.#log(`refused a ${request.method} reusing id ${showId(request.id)}, which is still in flight`);
      return refuse(RpcCode.InvalidRequest, `request id ${showId(request.id)} is already in flight; a request's id must differ from every other request still awaiting its answer (refused, not forwarded)`);
    }
    if (declaredVersion(request) !== undefined) {
      const problem = checkModernMeta(request);
      if (problem !== undefined) return { error: problem };
    }
    return undefined;
  }

  #request(request: JSONRPCRequest, arrival: Arrival): void {
    const refused = this.#refusal(request);
    if (refused !== undefined) {
      this.#options.peer.send({ jsonrpc: '2.0', id: request.id, ...refused } as JSONRPCMessage, request.id);
      return;
    }
    const entry: InFlight = { id: request.id, abort: new AbortController(), token: arrival.token, stage: 'server', cancelled: false, answered: false };
    this.#inFlight.set(idKey(request.id), entry);
    this.#track(this.#dispatch(request, entry));
  }

  async #dispatch(request: JSONRPCRequest, entry: InFlight): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.#requests.handle(request, this.#context(request, entry));
    } catch (error) {
      // Cancelled: no answer (the id was freed when the cancel arrived).
      if (isUpstreamError(error) && error.code === 'cancelled') return;
      if (!isUpstreamError(error)) this.#log(`internal error on ${request.method} ${showId(request.id)}: ${describe(error)}`);
      answer = isUpstreamError(error) ? upstreamFailure(error) : { error: { code: RpcCode.InternalError, message: `basis-hooks: internal error (${describe(error)})` } };
    }
    this.#answer(entry, answer);
  }

  /** What a request handler needs of this conversation. */
  #context(request: JSONRPCRequest, entry: InFlight): RequestContext {
    return {
      signal: entry.abort.signal,
      identity: (): Identity => resolveIdentity(request, this.#requests.clientName, entry.token, this.#options.identity),
      stage: (stage) => {
        entry.stage = stage;
      },
      cancelled: () => entry.cancelled,
      onRelated: (message) => this.#related(message, entry),
      askClient: (method, params) => this.#askClient(method, params, entry),
    };
  }

  /**
   * Send the client a request of the gateway's own about `entry` (on that request's stream), and
   * wait for its answer. Rejects `cancelled` when `entry` is cancelled first (the client is then told
   * the request is cancelled too).
   */
  #askClient(method: string, params: { [key: string]: unknown } | undefined, entry: InFlight): Promise<Answer> {
    if (entry.cancelled || this.#closing !== undefined) return Promise.reject(new UpstreamError('cancelled', 'the client cancelled the request'));
    if (!this.#options.peer.takesRequests) return Promise.resolve({ error: { code: RpcCode.MethodNotFound, message: `basis-hooks: the client cannot be sent requests ("${method}")` } });
    const id = this.#serverIds.next();
    const key = idKey(id);
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#ownRequests.delete(key)) return;
        this.#options.peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the request it was asked for ended' } }, entry.id);
        reject(new UpstreamError('cancelled', 'the client cancelled the request'));
      };
      entry.abort.signal.addEventListener('abort', onAbort, { once: true });
      this.#ownRequests.set(key, (answer) => {
        entry.abort.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      this.#options.peer.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage, entry.id);
    });
  }

  /** A message the server sent while working on the client's request: to the client, on that request's stream. */
  #related(message: Related, entry: InFlight): void {
    if (entry.cancelled) return;
    if ('id' in message) this.#serverRequest(message, entry.id);
    else this.#serverNotification(message, entry.id);
  }

  /** Answer a client request once (never a cancelled one: MCP says a cancelled request gets no answer). */
  #answer(entry: InFlight, answer: Answer): void {
    if (entry.answered || entry.cancelled) return;
    entry.answered = true;
    if (this.#inFlight.get(idKey(entry.id)) === entry) this.#inFlight.delete(idKey(entry.id));
    this.#options.peer.send({ jsonrpc: '2.0', id: entry.id, ...answer } as JSONRPCMessage, entry.id);
  }

  #notification(notification: JSONRPCNotification): void {
    const { method } = notification;
    const verdict = judgeMethod('client', method, false);
    if (verdict.kind === 'misused' || verdict.kind === 'wrong_direction') {
      this.#log(`dropped a notification from the client: ${verdict.why}`);
      return;
    }
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') {
      this.#log(`dropped the client's notification "${method}": the gateway does not know it (--unknown-methods forward passes such methods through)`);
      return;
    }
    if (method === 'notifications/cancelled') {
      const requestId = (notification.params as { requestId?: unknown } | undefined)?.requestId;
      const entry = typeof requestId === 'string' || typeof requestId === 'number' ? this.#inFlight.get(idKey(requestId)) : undefined;
      if (entry === undefined) {
        this.#log(`the client cancelled request ${showId(requestId as RequestId)}, which is not in flight (ignored)`);
        return;
      }
      // Stops its hooks, or tells the server (under the id the server knows it by).
      this.#cancel(entry);
      return;
    }
    if (this.#closing !== undefined) return;
    const forwarded = this.#requests.notification(notification);
    if (forwarded === undefined) return;
    void forwarded.catch((error: unknown) => this.#log(`could not forward ${method} to ${this.#options.upstream.link.label}: ${describe(error)}`));
  }

  #cancel(entry: InFlight): void {
    entry.cancelled = true;
    if (this.#inFlight.get(idKey(entry.id)) === entry) this.#inFlight.delete(idKey(entry.id));
    entry.abort.abort();
  }

  /** The client's answer to a server request: back to the server under the server's id, if one is waiting. */
  #clientAnswer(message: JSONRPCAnswer): void {
    const key = message.id === undefined ? undefined : idKey(message.id);
    const own = key === undefined ? undefined : this.#ownRequests.get(key);
    if (key !== undefined && own !== undefined) {
      this.#ownRequests.delete(key);
      own('result' in message ? { result: message.result } : { error: message.error });
      return;
    }
    const serverId = key === undefined ? undefined : this.#serverRequests.get(key);
    if (key === undefined || serverId === undefined) {
      this.#log(`the client sent an answer for request ${showId(message.id)}, which the server is not waiting for (dropped, never relayed)`);
      return;
    }
    this.#serverRequests.delete(key);
    this.#serverRequestIds.delete(idKey(serverId));
    const answer: Answer = 'result' in message ? { result: message.result } : { error: message.error };
    void this.#options.upstream.link.answer(serverId, answer).catch((error: unknown) => this.#log(`could not answer ${this.#options.upstream.link.label}: ${describe(error)}`));
  }

  // ── from the server ──────────────────────────────────────────────────────────────────────────────

  /** A request or notification the server sent that belongs to no call of the client's. */
  fromServer(message: Related): void {
    if ('id' in message) this.#serverRequest(message);
    else this.#serverNotification(message);
  }

  #serverRequest(request: JSONRPCRequest, related?: RequestId): void {
    const link = this.#options.upstream.link;
    const refuse = (code: number, why: string): void => {
      this.#log(`refused the server's request "${request.method}": ${why}`);
      void link.answer(request.id, { error: { code, message: `basis-hooks: ${why}` } }).catch(() => undefined);
    };
    if (this.#closing !== undefined) return refuse(RpcCode.ConnectionClosed, this.#closing);
    const verdict = judgeMethod('server', request.method, true);
    if (verdict.kind === 'misused') return refuse(RpcCode.InvalidRequest, verdict.why);
    if (verdict.kind === 'wrong_direction') return refuse(RpcCode.MethodNotFound, verdict.why);
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') return refuse(RpcCode.MethodNotFound, `the gateway does not know the method "${request.method}"`);
    if (!this.#options.peer.takesRequests) return refuse(RpcCode.MethodNotFound, `the client speaks MCP 2026-07-28, which has no server-to-client requests (the gateway does not translate "${request.method}" into an input_required result)`);
    const serverKey = idKey(request.id);
    if (this.#serverRequestIds.has(serverKey)) return refuse(RpcCode.InvalidRequest, `request id ${showId(request.id)} is already awaiting the client's answer`);
    const id = this.#serverIds.next();
    this.#serverRequests.set(idKey(id), request.id);
    this.#serverRequestIds.set(serverKey, id);
    this.#options.peer.send({ ...request, id }, related);
  }

  #serverNotification(notification: JSONRPCNotification, related?: RequestId): void {
    const { method } = notification;
    const verdict = judgeMethod('server', method, false);
    if (verdict.kind === 'misused' || verdict.kind === 'wrong_direction') {
      this.#log(`dropped a notification from ${this.#options.upstream.link.label}: ${verdict.why}`);
      return;
    }
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') {
      this.#log(`dropped the server's notification "${method}": the gateway does not know it`);
      return;
    }
    if (method === 'notifications/tasks') {
      // The tasks extension's push of a task's whole state — its result included — under the
      // server's task id: the client polls tasks/get instead, where the post chain runs.
      this.#log(`dropped the server's notifications/tasks (a task's result reaches the client through tasks/get, past the post chain)`);
      return;
    }
    if (method === 'notifications/cancelled') {
      // The server gave up one of its own requests to the client: under the id the client knows.
      const requestId = (notification.params as { requestId?: unknown } | undefined)?.requestId;
      const serverKey = typeof requestId === 'string' || typeof requestId === 'number' ? idKey(requestId) : undefined;
      const id = serverKey === undefined ? undefined : this.#serverRequestIds.get(serverKey);
      if (serverKey === undefined || id === undefined) {
        this.#log(`${this.#options.upstream.link.label} cancelled request ${showId(requestId as RequestId)}, which the client was not asked (dropped)`);
        return;
      }
      this.#serverRequestIds.delete(serverKey);
      this.#serverRequests.delete(idKey(id));
      this.#options.peer.send({ ...notification, params: { ...notification.params, requestId: id } }, related);
      return;
    }
    this.#options.peer.send(notification, related);
  }

  // ── endings ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * The server is gone: every request still in its pre chain is answered now with `why` (the call
   * was not made), the rest as their calls fail. Later requests are answered with `why` too.
   */
  upstreamGone(why: string): void {
    this.#closing ??= why;
    for (const entry of [...this.#inFlight.values()]) {
      if (entry.stage !== 'pre') continue;
      this.#answer(entry, { error: { code: RpcCode.ConnectionClosed, message: `basis-hooks: ${why}; the call was not made` } });
      entry.abort.abort();
    }
  }

  /** The client is gone: nothing more is answered; running hooks are stopped, calls at the server cancelled. */
  clientGone(): void {
    this.#closing ??= 'the client went away';
    for (const entry of [...this.#inFlight.values()]) this.#cancel(entry);
  }

  /** Resolves once every request being handled has been answered or dropped. */
  async settled(): Promise<void> {
    while (this.#work.size > 0) await Promise.all([...this.#work]);
  }

  get #unknownMethods(): UnknownMethods {
    return this.#options.unknownMethods ?? 'refuse';
  }

  #track(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => this.#log(`internal error: ${describe(error)}`)).finally(() => this.#work.delete(tracked));
    this.#work.add(tracked);
  }

  #log(line: string): void {
    this.#options.log(line);
  }
}
