import {
  CallToolRequestParamsSchema,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from '../../contract/json.js';
import { errorResponse, RpcCode } from './jsonrpc/errors.js';
import { IdMinter, idKey, showId } from './jsonrpc/ids.js';
import { judgeMethod, type UnknownMethods } from './jsonrpc/methods.js';
import type { Incoming, JSONRPCAnswer } from './jsonrpc/read.js';
import { TaskBook } from './tasks.js';
import type { HookedCall, Identity, ToolHooks } from './tool-hooks.js';
import { isUpstreamError, UpstreamError, type Answer, type Related, type UpstreamLink } from './upstream/link.js';

/** The client end of a conversation: where the gateway's messages to the client go. */
export interface ClientPeer {
  /**
   * Send `message` to the client. `related` is the client request it belongs to (its answer, or a
   * notification or server request sent while it runs): Streamable HTTP puts it on that request's
   * response stream; stdio has one stream for everything.
   */
  send(message: JSONRPCMessage, related?: RequestId): void;
}

/** What the client said about itself in `initialize` (2025-11-25). */
export interface SessionFacts {
  clientName: string | undefined;
}

/** Options of a {@link Conversation}. */
export interface ConversationOptions {
  readonly upstream: UpstreamLink;
  readonly peer: ClientPeer;
  readonly hooks: ToolHooks;
  /** Who a request is made for (the hooks' agent_id and workspace). */
  readonly identity: (request: JSONRPCRequest, session: SessionFacts) => Identity;
  /** What to do with methods in none of the gateway's tables (default `refuse`). */
  readonly unknownMethods?: UnknownMethods;
  readonly log: (line: string) => void;
}

/** One client request the gateway has not answered yet. */
interface InFlight {
  readonly id: RequestId;
  readonly abort: AbortController;
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
 * One client's conversation with the MCP server through the gateway: a stdio client, or a
 * Streamable HTTP session. It decides what crosses, in which direction, under which id:
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
 * - **Every tool result the client receives went through the post chain**: the answer to a
 *   `tools/call`, and the result of a task a `tools/call` started (`tasks/result`).
 */
export class Conversation {
  readonly #options: ConversationOptions;
  readonly #inFlight = new Map<string, InFlight>();
  /** Server → client requests awaiting the client's answer: our id's key → the server's id. */
  readonly #serverRequests = new Map<string, RequestId>();
  /** The same, the other way: the server's id's key → our id (to relay its cancellations). */
  readonly #serverRequestIds = new Map<string, number>();
  readonly #serverIds = new IdMinter();
  readonly #tasks = new TaskBook();
  readonly #work = new Set<Promise<void>>();
  readonly #session: SessionFacts = { clientName: undefined };
  #closing: string | undefined;

  constructor(options: ConversationOptions) {
    this.#options = options;
  }

  /** Requests not answered yet. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  // ── from the client ──────────────────────────────────────────────────────────────────────────────

  /** A message from the client. */
  receive(incoming: Incoming): void {
    switch (incoming.kind) {
      case 'request':
        this.#request(incoming.message);
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

  #request(request: JSONRPCRequest): void {
    const reply = (code: number, message: string): void => this.#options.peer.send(errorResponse(request.id, code, `basis-hooks: ${message}`), request.id);
    if (this.#closing !== undefined) return reply(RpcCode.ConnectionClosed, this.#closing);
    const verdict = judgeMethod('client', request.method, true);
    if (verdict.kind === 'misused') return reply(RpcCode.InvalidRequest, `${verdict.why}; refused`);
    if (verdict.kind === 'wrong_direction') return reply(RpcCode.MethodNotFound, `${verdict.why}; refused`);
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') {
      this.#log(`refused the client's request for unknown method "${request.method}"`);
      return reply(RpcCode.MethodNotFound, `the gateway does not know the method "${request.method}" and refuses what it cannot check (its operator can pass unknown methods through with --unknown-methods forward)`);
    }
    const key = idKey(request.id);
    if (this.#inFlight.has(key)) {
      this.#log(`refused a ${request.method} reusing id ${showId(request.id)}, which is still in flight`);
      return reply(RpcCode.InvalidRequest, `request id ${showId(request.id)} is already in flight; a request's id must differ from every other request still awaiting its answer (refused, not forwarded)`);
    }
    const entry: InFlight = { id: request.id, abort: new AbortController(), stage: 'server', cancelled: false, answered: false };
    this.#inFlight.set(key, entry);
    this.#track(this.#dispatch(request, entry));
  }

  async #dispatch(request: JSONRPCRequest, entry: InFlight): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.#handle(request, entry);
    } catch (error) {
      // Cancelled: no answer (the id was freed when the cancel arrived).
      if (isUpstreamError(error) && error.code === 'cancelled') return;
      if (!isUpstreamError(error)) this.#log(`internal error on ${request.method} ${showId(request.id)}: ${describe(error)}`);
      answer = isUpstreamError(error) ? upstreamFailure(error) : { error: { code: RpcCode.InternalError, message: `basis-hooks: internal error (${describe(error)})` } };
    }
    this.#answer(entry, answer);
  }

  #handle(request: JSONRPCRequest, entry: InFlight): Promise<Answer> {
    switch (request.method) {
      case 'tools/call':
        return this.#toolCall(request, entry);
      case 'tasks/result':
        return this.#taskResult(request, entry);
      case 'initialize': {
        const name = (request.params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo?.name;
        if (typeof name === 'string' && name !== '') this.#session.clientName = name;
        return this.#forward(request, entry);
      }
      default:
        return this.#forward(request, entry);
    }
  }

  #forward(request: JSONRPCRequest, entry: InFlight): Promise<Answer> {
    entry.stage = 'server';
    return this.#options.upstream.call({ request, signal: entry.abort.signal, onRelated: (message) => this.#related(message, entry) });
  }

  async #toolCall(request: JSONRPCRequest, entry: InFlight): Promise<Answer> {
    const parsed = CallToolRequestParamsSchema.safeParse(request.params);
    if (!parsed.success) {
      return { error: { code: RpcCode.InvalidParams, message: `invalid tools/call params: ${parsed.error.issues.map((i) => i.message).join('; ')}` } };
    }
    // The raw params, not the parse: the server gets every field the client sent.
    const params = request.params as Record<string, unknown>;
    let call: HookedCall = {
      identity: this.#options.identity(request, this.#session),
      toolCallId: String(request.id),
      name: parsed.data.name,
      input: (params.arguments ?? {}) as JsonValue,
    };
    entry.stage = 'pre';
    const verdict = await this.#options.hooks.pre(call, entry.abort.signal);
    if (entry.cancelled) throw new UpstreamError('cancelled', 'the client cancelled the request');
    if (verdict.kind === 'refused') return { result: verdict.result };
    call = { ...call, input: verdict.input };
    const forwarded: JSONRPCRequest = verdict.modified ? { ...request, params: { ...params, arguments: verdict.input as Record<string, unknown> } } : request;
    const answer = await this.#forward(forwarded, entry);
    if ('error' in answer) return answer; // the protocol failing (unknown tool, bad params), not a tool result
    if (params.task !== undefined) {
      // Task-augmented (2025-11-25): the answer is the task's handle; its result comes through
      // tasks/result, where the post chain runs on it.
      const taskId = (answer.result.task as { taskId?: unknown } | undefined)?.taskId;
      if (typeof taskId === 'string') {
        this.#tasks.remember(taskId, call);
        return answer;
      }
    }
    entry.stage = 'post';
    return { result: await this.#options.hooks.post(call, answer.result, entry.abort.signal) };
  }

  async #taskResult(request: JSONRPCRequest, entry: InFlight): Promise<Answer> {
    const taskId = (request.params as { taskId?: unknown } | undefined)?.taskId;
    const call = typeof taskId === 'string' ? this.#tasks.recall(taskId) : undefined;
    if (call === undefined && this.#options.hooks.anyPost) {
      return {
        error: {
          code: RpcCode.InvalidParams,
          message: `basis-hooks: task ${JSON.stringify(taskId)} was not started by a tools/call through this connection to the gateway, so the post_tool_use hooks cannot check its result; it was not fetched (fail closed)`,
        },
      };
    }
    const answer = await this.#forward(request, entry);
    if ('error' in answer || call === undefined) return answer;
    entry.stage = 'post';
    return { result: await this.#options.hooks.post(call, answer.result, entry.abort.signal) };
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
    void this.#options.upstream.notify(notification).catch((error: unknown) => this.#log(`could not forward ${method} to ${this.#options.upstream.label}: ${describe(error)}`));
  }

  #cancel(entry: InFlight): void {
    entry.cancelled = true;
    if (this.#inFlight.get(idKey(entry.id)) === entry) this.#inFlight.delete(idKey(entry.id));
    entry.abort.abort();
  }

  /** The client's answer to a server request: back to the server under the server's id, if one is waiting. */
  #clientAnswer(message: JSONRPCAnswer): void {
    const key = message.id === undefined ? undefined : idKey(message.id);
    const serverId = key === undefined ? undefined : this.#serverRequests.get(key);
    if (key === undefined || serverId === undefined) {
      this.#log(`the client sent an answer for request ${showId(message.id)}, which the server is not waiting for (dropped, never relayed)`);
      return;
    }
    this.#serverRequests.delete(key);
    this.#serverRequestIds.delete(idKey(serverId));
    const answer: Answer = 'result' in message ? { result: message.result } : { error: message.error };
    void this.#options.upstream.answer(serverId, answer).catch((error: unknown) => this.#log(`could not answer ${this.#options.upstream.label}: ${describe(error)}`));
  }

  // ── from the server ──────────────────────────────────────────────────────────────────────────────

  /** A request or notification the server sent that belongs to no call of the client's. */
  fromServer(message: Related): void {
    if ('id' in message) this.#serverRequest(message);
    else this.#serverNotification(message);
  }

  #serverRequest(request: JSONRPCRequest, related?: RequestId): void {
    const refuse = (code: number, why: string): void => {
      this.#log(`refused the server's request "${request.method}": ${why}`);
      void this.#options.upstream.answer(request.id, { error: { code, message: `basis-hooks: ${why}` } }).catch(() => undefined);
    };
    if (this.#closing !== undefined) return refuse(RpcCode.ConnectionClosed, this.#closing);
    const verdict = judgeMethod('server', request.method, true);
    if (verdict.kind === 'misused') return refuse(RpcCode.InvalidRequest, verdict.why);
    if (verdict.kind === 'wrong_direction') return refuse(RpcCode.MethodNotFound, verdict.why);
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') return refuse(RpcCode.MethodNotFound, `the gateway does not know the method "${request.method}"`);
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
      this.#log(`dropped a notification from ${this.#options.upstream.label}: ${verdict.why}`);
      return;
    }
    if (verdict.kind === 'unknown' && this.#unknownMethods === 'refuse') {
      this.#log(`dropped the server's notification "${method}": the gateway does not know it`);
      return;
    }
    if (method === 'notifications/cancelled') {
      // The server gave up one of its own requests to the client: under the id the client knows.
      const requestId = (notification.params as { requestId?: unknown } | undefined)?.requestId;
      const serverKey = typeof requestId === 'string' || typeof requestId === 'number' ? idKey(requestId) : undefined;
      const id = serverKey === undefined ? undefined : this.#serverRequestIds.get(serverKey);
      if (serverKey === undefined || id === undefined) {
        this.#log(`${this.#options.upstream.label} cancelled request ${showId(requestId as RequestId)}, which the client was not asked (dropped)`);
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
