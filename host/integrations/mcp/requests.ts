import { AUDIT_SCHEMA_VERSION } from '../../contract/audit.js';
import type { JsonValue } from '../../contract/json.js';
import { CallToolRequestParamsSchema, type JSONRPCNotification, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ConversationOptions } from './conversation.js';
import { declaredVersion, modernResult, resultTypeOf, type Era } from './era.js';
import { RpcCode } from './jsonrpc/errors.js';
import { plainToolCallParams } from './jsonrpc/fast-read.js';
import { TaskBook } from './tasks.js';
import { ToolCallTrace } from './trace-meta.js';
import type { HookedCall, Identity } from './tool-hooks.js';
import { discoverFromInitialize, initializeFromDiscover, legacyClientOf, NOT_TRANSLATED, toModernRequest, type LegacyClient } from './translate.js';
import { UpstreamError, type Answer, type Related } from './upstream/link.js';

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a request's handling needs of the conversation it belongs to. */
export interface RequestContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Who the request is made for. */
  identity(): Identity;
  /** Where the request is: in its pre chain, at the server, in its post chain. */
  stage(stage: 'pre' | 'server' | 'post'): void;
  cancelled(): boolean;
  /** The server's messages about the request (progress, logs, its own requests). */
  onRelated(message: Related): void;
  /** Ask the client something of the gateway's own about this request (a legacy client: sampling, elicitation, roots). */
  askClient(method: string, params: { [key: string]: unknown } | undefined): Promise<Answer>;
}

/** Sends a request (in the server's era) and gives the answer back in the client's era. */
type Forward = (request: JSONRPCRequest) => Promise<Answer>;

/**
 * How many `input_required` rounds the gateway goes through for a legacy client before it gives up on
 * a call (a server may ask again and again: 2026-07-28 basic/patterns/mrtr lets it; a loop must end).
 */
const INPUT_ROUNDS = 10;

/** The input requests of 2026-07-28 (MRTR's `inputRequests` values) and the 2025-11-25 client capability each needs. */
const INPUT_METHODS: ReadonlyMap<string, string> = new Map([
  ['elicitation/create', 'elicitation'],
  ['sampling/createMessage', 'sampling'],
  ['roots/list', 'roots'],
]);

/**
 * What each request does on its way through the gateway, in each pairing of eras (docs/mcp-gateway.md,
 * "Both eras"):
 *
 * - legacy client ↔ legacy server, modern client ↔ modern server: forwarded as is;
 * - modern client → legacy server: the gateway's own session on the server; `server/discover`
 *   answered from its `initialize`; results given `resultType` (and `ttlMs`/`cacheScope` for lists);
 * - legacy client → modern server: `initialize` answered from the server's `server/discover`; every
 *   request given the 2026-07-28 `_meta` (version, the client's info and capabilities);
 * - a method with no counterpart in the server's era is refused (`-32601`), never guessed at.
 *
 * And, in every pairing, the gateway's own work: `tools/call` through the hooks (after `expose`),
 * `tools/list` filtered per identity and checked against earlier listings, task results through the
 * post chain of the call that started the task.
 */
export class Requests {
  readonly #options: ConversationOptions;
  readonly #tasks = new TaskBook();
  /** What the client said in `initialize` (legacy clients). */
  #client: LegacyClient | undefined;
  /** `logging/setLevel` of a legacy client in front of a modern server: sent as `_meta` from then on. */
  #logLevel: string | undefined;
  /** A legacy client's `initialize` was answered from a session the gateway (or another client) opened: its `notifications/initialized` is ours to swallow. */
  #answeredInitialize = false;

  constructor(options: ConversationOptions) {
    this.#options = options;
  }

  /** The client's name from its `initialize`, when it sent one. */
  get clientName(): string | undefined {
    const name = this.#client?.clientInfo?.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  }

  handle(request: JSONRPCRequest, context: RequestContext): Promise<Answer> {
    return declaredVersion(request) === undefined ? this.#fromLegacy(request, context) : this.#fromModern(request, context);
  }

  /** A client notification to forward: the promise of its sending, or `undefined` when the gateway keeps it. */
  notification(notification: JSONRPCNotification): Promise<void> | undefined {
    const upstream = this.#options.upstream;
    if (notification.method === 'notifications/initialized' && (this.#answeredInitialize || upstream.era === 'modern')) return undefined;
    // A modern server has no roots list to be told about, and asks for progress on nothing of the client's.
    if (upstream.era === 'modern' && declaredVersion({ params: notification.params }) === undefined) return undefined;
    return upstream.link.notify(notification);
  }

  // ── a legacy (2025-11-25) client ─────────────────────────────────────────────────────────────────

  async #fromLegacy(request: JSONRPCRequest, context: RequestContext): Promise<Answer> {
    const upstream = this.#options.upstream;
    if (upstream.era === 'legacy') {
      const forward: Forward = (r) => this.#send(r, context);
      switch (request.method) {
        case 'initialize': {
          this.#client = legacyClientOf(request);
          if (upstream.opened) {
            // The server's session is already open (the gateway opened it for modern clients): this
            // client shares it, as its initialize result says.
            this.#answeredInitialize = true;
            return { result: await upstream.gatewaySession() };
          }
          const answer = await forward(request);
          if ('result' in answer) upstream.clientOpened(answer.result);
          return answer;
        }
        case 'tools/call':
          return this.#toolCall(request, context, forward, 'legacy');
        case 'tasks/result':
          return this.#taskResult(request, context, forward);
        case 'tools/list':
          return this.#toolsList(request, context, forward, 'legacy');
        default:
          return forward(request);
      }
    }
    // A modern server: the gateway speaks 2026-07-28 for this client.
    switch (request.method) {
      case 'initialize':
        this.#client = legacyClientOf(request);
        this.#answeredInitialize = true;
        return { result: initializeFromDiscover(upstream.discover, this.#client) };
      case 'ping':
        return { result: {} };
      case 'logging/setLevel': {
        const level = (request.params as { level?: unknown } | undefined)?.level;
        if (typeof level === 'string') this.#logLevel = level;
        return { result: {} };
      }
    }
    if (NOT_TRANSLATED.toModern.has(request.method)) return notTranslated(request.method, 'legacy');
    const forward: Forward = (r) => this.#sendToModern(r, context);
    if (request.method === 'tools/call') return this.#toolCall(request, context, forward, 'legacy');
    if (request.method === 'tools/list') return this.#toolsList(request, context, forward, 'legacy');
    return forward(request);
  }

  /**
   * A legacy client's request to a modern server: with the 2026-07-28 `_meta`. An `input_required`
   * result (multi round-trip, 2026-07-28 basic/patterns/mrtr) is the server asking the client what a
   * 2025-11-25 server asks with requests of its own — the same `elicitation/create`,
   * `sampling/createMessage` and `roots/list` — so the gateway does the client's part: it sends each
   * input request to the client as a request on this call's stream, and retries the call with the
   * answers as `inputResponses` and the server's `requestState` echoed exactly (a new id each time),
   * until the result is complete. The pre chain ran once, on the call; the post chain runs on the
   * complete result.
   */
  async #sendToModern(request: JSONRPCRequest, context: RequestContext): Promise<Answer> {
    const client = this.#client ?? { protocolVersion: '2025-11-25', clientInfo: undefined, capabilities: {} };
    const first = toModernRequest(request, client, this.#logLevel);
    let current = first;
    for (let round = 1; ; round++) {
      const answer = await this.#send(current, context);
      if ('error' in answer || resultTypeOf(answer.result) !== 'input_required') return answer;
      const label = this.#options.upstream.link.label;
      if (round > INPUT_ROUNDS) {
        return { error: { code: RpcCode.InternalError, message: `basis-hooks: ${label} asked for input ${INPUT_ROUNDS} times on one ${request.method} without completing it; the gateway gave up` } };
      }
      const { inputRequests, requestState } = answer.result;
      let inputResponses: Json | undefined;
      if (inputRequests !== undefined) {
        const asked = await this.#askForInput(inputRequests, client, context);
        if ('error' in asked) return { error: asked.error };
        inputResponses = asked.responses;
      } else if (typeof requestState !== 'string') {
        return { error: { code: RpcCode.InternalError, message: `basis-hooks: ${label} answered input_required with neither inputRequests nor requestState (the spec requires one)` } };
      }
      // The retry is the original request with this round's answers: nothing of an earlier round's.
      const { inputResponses: _responses, requestState: _state, ...params } = (first.params ?? {}) as Json;
      current = { ...first, params: { ...params, ...(inputResponses === undefined ? {} : { inputResponses }), ...(typeof requestState === 'string' ? { requestState } : {}) } };
    }
  }

  /** Put a modern server's input requests to a legacy client, one at a time: their results by key, or why not. */
  async #askForInput(inputRequests: unknown, client: LegacyClient, context: RequestContext): Promise<{ responses: Json } | { error: { code: number; message: string } }> {
    const label = this.#options.upstream.link.label;
    if (!isObject(inputRequests)) return { error: { code: RpcCode.InternalError, message: `basis-hooks: ${label} sent inputRequests that are not an object` } };
    const responses: Json = {};
    for (const [key, asked] of Object.entries(inputRequests)) {
      const method = isObject(asked) && typeof asked.method === 'string' ? asked.method : undefined;
      const capability = method === undefined ? undefined : INPUT_METHODS.get(method);
      if (method === undefined || capability === undefined) {
        return { error: { code: RpcCode.InternalError, message: `basis-hooks: ${label} asked the client for ${JSON.stringify(method ?? asked)}, which is not an input request of MCP 2026-07-28` } };
      }
      if (!isObject(client.capabilities[capability])) {
        // The gateway declared exactly the client's capabilities: a conforming server never asks this.
        return { error: { code: RpcCode.InternalError, message: `basis-hooks: ${label} asked the client for ${method}, but the client did not declare the "${capability}" capability` } };
      }
      const params = isObject(asked) && isObject(asked.params) ? asked.params : undefined;
      const answer = await context.askClient(method, params);
      if ('error' in answer) {
        return { error: { code: RpcCode.InternalError, message: `basis-hooks: the client answered the server's ${method} with an error (${answer.error.code}: ${answer.error.message}); the request was not completed` } };
      }
      responses[key] = answer.result;
    }
    return { responses };
  }

  // ── a modern (2026-07-28) client ─────────────────────────────────────────────────────────────────

  async #fromModern(request: JSONRPCRequest, context: RequestContext): Promise<Answer> {
    const upstream = this.#options.upstream;
    if (NOT_TRANSLATED.fromModern.has(request.method)) {
      return { error: { code: RpcCode.MethodNotFound, message: `basis-hooks: "${request.method}" is not a method of MCP 2026-07-28, which this request declares` } };
    }
    if (upstream.era === 'modern') {
      const forward: Forward = (r) => this.#send(r, context);
      switch (request.method) {
        case 'tools/call':
          return this.#toolCall(request, context, forward, 'modern');
        case 'tools/list':
          return this.#toolsList(request, context, forward, 'modern');
        case 'tasks/get':
        case 'tasks/update':
        case 'tasks/cancel':
          return this.#sealedTask(request, context, forward);
        default:
          return forward(request);
      }
    }
    // A legacy server: the gateway's own session on it, 2026-07-28 shapes for the client.
    if (request.method === 'server/discover') return { result: discoverFromInitialize(await upstream.gatewaySession()) };
    if (NOT_TRANSLATED.toLegacy.has(request.method)) return notTranslated(request.method, 'modern');
    await upstream.gatewaySession();
    const forward: Forward = async (r) => {
      const answer = await this.#send(r, context);
      return 'result' in answer ? { result: modernResult(r.method, answer.result) } : answer;
    };
    if (request.method === 'tools/call') return this.#toolCall(request, context, forward, 'modern');
    if (request.method === 'tools/list') return this.#toolsList(request, context, forward, 'modern');
    return forward(request);
  }

  // ── the gateway's own work ───────────────────────────────────────────────────────────────────────

  #send(request: JSONRPCRequest, context: RequestContext): Promise<Answer> {
    context.stage('server');
    return this.#options.upstream.link.call({ request, signal: context.signal, onRelated: context.onRelated });
  }

  async #toolCall(request: JSONRPCRequest, context: RequestContext, forward: Forward, era: Era): Promise<Answer> {
    // The raw params, not the parse: the server gets every field the client sent.
    const params = request.params as Json;
    if (!plainToolCallParams(params)) {
      const parsed = CallToolRequestParamsSchema.safeParse(request.params);
      if (!parsed.success) return { error: { code: RpcCode.InvalidParams, message: `invalid tools/call params: ${parsed.error.issues.map((i) => i.message).join('; ')}` } };
    }
    const name = params.name as string;
    // Its spans, while an OpenTelemetry SDK listens: the client's trace (params._meta) continues here.
    const trace = ToolCallTrace.start(request, name);
    if (trace === undefined) return this.#hookedCall(request, context, forward, era, name, undefined);
    try {
      const answer = await this.#hookedCall(request, context, forward, era, name, trace);
      trace.end(answer);
      return answer;
    } catch (error) {
      trace.end(undefined);
      throw error;
    }
  }

  async #hookedCall(request: JSONRPCRequest, context: RequestContext, forward: Forward, era: Era, name: string, trace: ToolCallTrace | undefined): Promise<Answer> {
    const params = request.params as Json;
    const identity = context.identity();
    if (!this.#options.exposure.allows(identity.agentId, name)) return this.#notExposed(request, identity, name);
    let call: HookedCall = { identity, toolCallId: String(request.id), name, input: (params.arguments ?? {}) as JsonValue, trace: trace?.context };
    context.stage('pre');
    const verdict = await this.#options.hooks.pre(call, context.signal);
    if (context.cancelled()) throw new UpstreamError('cancelled', 'the client cancelled the request');
    if (verdict.kind === 'refused') return { result: era === 'modern' ? { ...verdict.result, resultType: 'complete' } : verdict.result };
    call = { ...call, input: verdict.input };
    const forwarded: JSONRPCRequest = verdict.modified ? { ...request, params: { ...params, arguments: verdict.input as Json } } : request;
    // With tracing on, the server is told the gateway's hop is its parent (params._meta.traceparent).
    const answer = await forward(trace === undefined ? forwarded : trace.forward(forwarded));
    trace?.upstreamAnswered(answer);
    if ('error' in answer) return answer; // the protocol failing (unknown tool, bad params), not a tool result
    const result = answer.result;
    if (era === 'modern') {
      const type = resultTypeOf(result);
      // Multi round-trip: the client retries the call with its input (a new tools/call, through the
      // pre chain again); only a complete result goes through the post chain.
      if (type === 'input_required') return answer;
      if (type === 'task') return { result: this.#sealTask(result, call) };
      if (type !== 'complete') return { result: { ...refusalOf(`basis-hooks: the server answered "${name}" with a result of type ${JSON.stringify(type)}, which the gateway does not know; it was withheld (fail closed)`), resultType: 'complete' } };
    } else if (params.task !== undefined) {
      // Task-augmented (2025-11-25): the answer is the task's handle; its result comes through
      // tasks/result, where the post chain runs on it.
      const taskId = (result.task as { taskId?: unknown } | undefined)?.taskId;
      if (typeof taskId === 'string') {
        this.#tasks.remember(taskId, call);
        return answer;
      }
    }
    context.stage('post');
    const hooked = await this.#options.hooks.post(call, result, context.signal, { anyStructuredContent: era === 'modern' });
    return { result: era === 'modern' ? { ...hooked, resultType: 'complete' } : hooked };
  }

  #notExposed(request: JSONRPCRequest, identity: Identity, name: string): Answer {
    const reason = `tool "${name}" is not exposed to agent "${identity.agentId}"`;
    this.#options.log(`refused ${request.method} ${JSON.stringify(request.id)}: ${reason}`);
    this.#options.record?.({
      audit_schema: AUDIT_SCHEMA_VERSION,
      time: new Date().toISOString(),
      type: 'tool_call_refused',
      workspace: identity.workspace,
      agent_id: identity.agentId,
      tool_call_id: String(request.id),
      tool_name: name,
      reason,
    });
    return { error: { code: RpcCode.InvalidParams, message: `basis-hooks: ${reason}` } };
  }

  async #toolsList(request: JSONRPCRequest, context: RequestContext, forward: Forward, era: Era): Promise<Answer> {
    const answer = await forward(request);
    if ('error' in answer || !Array.isArray(answer.result.tools)) return answer;
    const identity = context.identity();
    const tools = answer.result.tools as unknown[];
    const complete = (request.params as { cursor?: unknown } | undefined)?.cursor === undefined && answer.result.nextCursor === undefined;
    this.#options.upstream.catalog.observe(tools, complete, identity.agentId);
    const exposure = this.#options.exposure;
    if (!exposure.configured) return answer;
    const visible = tools.filter((tool) => isObject(tool) && typeof tool.name === 'string' && exposure.allows(identity.agentId, tool.name));
    // Filtered per identity: a shared cache must not serve it to anyone else (2026-07-28 cacheScope).
    return { result: { ...answer.result, tools: visible, ...(era === 'modern' ? { cacheScope: 'private' } : {}) } };
  }

  /** 2025-11-25 `tasks/result`: the result of a task a `tools/call` started, through that call's post chain. */
  async #taskResult(request: JSONRPCRequest, context: RequestContext, forward: Forward): Promise<Answer> {
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
    const answer = await forward(request);
    if ('error' in answer || call === undefined) return answer;
    context.stage('post');
    return { result: await this.#options.hooks.post(call, answer.result, context.signal) };
  }

  /** A 2026-07-28 task handle for the client: the server's task id sealed with the call that started it. */
  #sealTask(result: Json, call: HookedCall): Json {
    const taskId = result.taskId;
    if (typeof taskId !== 'string') return result;
    return { ...result, taskId: this.#options.seal.seal({ taskId, tool: call.name, input: call.input, toolCallId: call.toolCallId, agentId: call.identity.agentId }) };
  }

  /** `tasks/get`, `tasks/update`, `tasks/cancel` (tasks extension): on a handle this gateway sealed, for the identity that started it. */
  async #sealedTask(request: JSONRPCRequest, context: RequestContext, forward: Forward): Promise<Answer> {
    const params = (request.params ?? {}) as Json;
    const handle = params.taskId;
    const contents = typeof handle === 'string' ? this.#options.seal.open(handle) : undefined;
    if (contents === undefined || typeof handle !== 'string') {
      return { error: { code: RpcCode.InvalidParams, message: `basis-hooks: ${JSON.stringify(handle)} is not a task handle this gateway gave out (or it was altered)` } };
    }
    const identity = context.identity();
    if (contents.agentId !== identity.agentId) {
      return { error: { code: RpcCode.InvalidParams, message: `basis-hooks: task ${JSON.stringify(handle)} belongs to another agent` } };
    }
    const answer = await forward({ ...request, params: { ...params, taskId: contents.taskId } });
    if ('error' in answer) return answer;
    const result: Json = { ...answer.result };
    if (result.taskId === contents.taskId) result.taskId = handle;
    if (request.method === 'tasks/get' && result.status === 'completed' && isObject(result.result)) {
      context.stage('post');
      const call: HookedCall = { identity, toolCallId: contents.toolCallId, name: contents.tool, input: contents.input };
      result.result = await this.#options.hooks.post(call, result.result, context.signal, { anyStructuredContent: true });
    }
    return { result };
  }
}

function refusalOf(reason: string): Json {
  return { content: [{ type: 'text', text: reason }], isError: true };
}

/** A method with no counterpart in the server's era: refused, never guessed at. */
function notTranslated(method: string, client: Era): Answer {
  const [from, to] = client === 'legacy' ? ['2025-11-25', '2026-07-28'] : ['2026-07-28', '2025-11-25'];
  return { error: { code: RpcCode.MethodNotFound, message: `basis-hooks: "${method}" (MCP ${from}) has no counterpart in MCP ${to}, which the server speaks; the gateway does not translate it` } };
}
