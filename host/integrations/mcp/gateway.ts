import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from '../../contract/json.js';
import type { PostToolUseOutcome, PreToolUseOutcome } from '../../contract/outcome.js';
import { compileToolMatcher } from '../../runner/matcher.js';
import type { HookRunner } from '../../runner/runner.js';
import { objectInputCheck } from '../shared/object-input.js';
import { exitStatus, ServerProcess, type ServerCommand, type ServerExit } from './server-process.js';
import { outputOf, refusal, resultAfterHooks } from './tool-call.js';
import { ToolCallTrace } from './trace-meta.js';

/** Options of {@link McpGateway.start}. */
export interface GatewayOptions {
  /** The chain run on every `tools/call` (the gateway wraps it so a `modify` must yield an object). */
  readonly runner: HookRunner;
  /** The MCP server to spawn and speak to. */
  readonly server: ServerCommand;
  /** The `workspace` of every call (the CLI's default: its working directory). */
  readonly workspace: string;
  /** The `agent_id` of every call; default: `clientInfo.name` from the client's `initialize`. */
  readonly agentId?: string;
  /** Where the client's messages come from (default process.stdin). */
  readonly input?: Readable;
  /** Where messages to the client go (default process.stdout). Nothing but protocol is written here. */
  readonly output?: Writable;
  /** Diagnostics (never on the protocol stream). */
  readonly log?: (line: string) => void;
  /** Called with every chain outcome, for an audit trail. */
  readonly onOutcome?: (outcome: PreToolUseOutcome | PostToolUseOutcome, tool: string) => void;
}

/** Why the gateway ended, and the exit status it ends with. */
export interface GatewayEnd {
  readonly reason: 'server_exited' | 'client_closed' | 'stopped';
  readonly status: number;
  /** How the server ended, when it ended by itself. */
  readonly server?: ServerExit;
}

/** MCP's tool arguments are JSON objects: what a `modify` must rewrite them to. */
const MCP_INPUT = objectInputCheck('MCP');

/** The agent id used before the client said who it is (a `tools/call` before `initialize`). */
export const UNKNOWN_CLIENT = 'mcp-client';

/** One `tools/call` in flight, from the client's request to the answer it gets. */
interface ToolCall {
  readonly id: RequestId;
  readonly request: JSONRPCRequest;
  readonly name: string;
  readonly abort: AbortController;
  /** pre: the pre chain runs; server: the server has it; post: the post chain runs on its result. */
  stage: 'pre' | 'server' | 'post';
  /** The input the tool runs with (after any modify). */
  input: JsonValue;
  /** The client cancelled it: it gets no answer (MCP: a cancelled request is not answered). */
  cancelled: boolean;
  answered: boolean;
  /** Its spans, while an OpenTelemetry SDK listens (trace context continues from and to `_meta`). */
  readonly trace: ToolCallTrace | undefined;
}

/** A request id as a map key: `1` and `"1"` are different requests. */
function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/**
 * A stdio MCP gateway: the client speaks MCP to it on stdin/stdout, it speaks MCP to the server it
 * spawned, and every `tools/call` goes through the hook chain — the pre hooks before the server sees
 * it, the post hooks on the result before the client does. Everything else passes through unchanged
 * in both directions, ids intact (the gateway originates no request of its own, so the two id spaces
 * never mix): the handshake, listings, resources, prompts, the server's requests to the client
 * (sampling, elicitation, roots) and every notification.
 *
 * - A call a hook denies — or a hook that fails closed — is answered with an `isError` result naming
 *   the reason; the server never sees it.
 * - `tools/call`s are handled concurrently, each with its own chain.
 * - A cancelled call is not answered; a cancel for a call still in the pre chain stops the chain and
 *   never reaches the server.
 * - When the server exits, every request it had not answered gets a JSON-RPC error and the gateway
 *   ends with the server's exit status; when the client goes away, the server is stopped.
 *
 * @example
 * const gateway = await McpGateway.start({ runner, server: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '/data'] }, workspace: '/data' });
 * process.exitCode = (await gateway.ended).status;
 */
export class McpGateway {
  readonly #runner: HookRunner;
  readonly #server: ServerProcess;
  readonly #client: StdioServerTransport;
  readonly #options: GatewayOptions;
  readonly #hasPostHooks: (tool: string) => boolean;
  readonly #calls = new Map<string, ToolCall>();
  /** Client requests the server has and has not answered yet (tools/calls included). */
  readonly #atServer = new Map<string, RequestId>();
  readonly #tasks = new Set<Promise<void>>();
  #agent: string;
  #ending = false;
  #resolveEnd!: (end: GatewayEnd) => void;
  /** Resolves once the gateway has stopped: the server is gone and every answer was written. */
  readonly ended: Promise<GatewayEnd>;

  private constructor(options: GatewayOptions, server: ServerProcess) {
    this.#options = options;
    this.#runner = options.runner;
    const post = options.runner.hooks.filter((h) => h.event === 'post_tool_use').map((h) => compileToolMatcher(h.tools));
    this.#hasPostHooks = (tool) => post.some((matches) => matches(tool));
    this.#agent = options.agentId ?? UNKNOWN_CLIENT;
    this.#server = server;
    this.#client = new StdioServerTransport(options.input ?? process.stdin, options.output ?? process.stdout);
    this.ended = new Promise((resolve) => (this.#resolveEnd = resolve));
  }

  /**
   * Spawn the server and start relaying. Rejects (with nothing started) when the server cannot be
   * started. Messages the client sent before this resolved are read, not lost.
   */
  static async start(options: GatewayOptions): Promise<McpGateway> {
    const server = new ServerProcess(options.server);
    const gateway = new McpGateway(options, server);
    await server.start();
    gateway.#wire();
    return gateway;
  }

  /** The server's pid. */
  get serverPid(): number | undefined {
    return this.#server.pid;
  }

  #wire(): void {
    const input = this.#options.input ?? process.stdin;
    const output = this.#options.output ?? process.stdout;
    this.#server.onmessage = (message) => this.#fromServer(message);
    this.#server.onerror = (error) => this.#log(`the MCP server sent something that is not a JSON-RPC message (dropped): ${error.message}`);
    this.#client.onmessage = (message) => this.#fromClient(message);
    this.#client.onerror = (error) => this.#log(`the client sent something that is not a JSON-RPC message (dropped): ${error.message}`);
    void this.#server.exited.then((exit) => this.#serverExited(exit));
    input.once('end', () => void this.#clientGone());
    input.once('close', () => void this.#clientGone());
    output.on('error', () => void this.#clientGone());
    void this.#client.start();
  }

  /** Stop relaying: the server is stopped (process group) and pending calls are dropped. */
  stop(status: number): Promise<GatewayEnd> {
    void this.#shutdown('stopped', status);
    return this.ended;
  }

  // ── client → server ──────────────────────────────────────────────────────────────────────────────

  #fromClient(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) {
      if (this.#ending) {
        this.#toClient({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.ConnectionClosed, message: 'basis-hooks: the gateway is shutting down; the MCP server is gone' } });
        return;
      }
      if (message.method === 'initialize' && this.#options.agentId === undefined) {
        const name = (message.params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo?.name;
        if (typeof name === 'string' && name !== '') this.#agent = name;
      }
      if (message.method === 'tools/call') {
        this.#track(this.#toolCall(message));
        return;
      }
      this.#atServer.set(idKey(message.id), message.id);
      this.#toServer(message, message.id);
      return;
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const call = requestId === undefined ? undefined : this.#calls.get(idKey(requestId));
      if (call !== undefined) {
        call.cancelled = true;
        call.abort.abort();
        call.trace?.end(undefined);
        this.#atServer.delete(idKey(call.id));
        // A call still in the pre chain never reached the server: there is nothing there to cancel.
        if (call.stage === 'pre') return;
      }
    }
    this.#toServer(message);
  }

  async #toolCall(request: JSONRPCRequest): Promise<void> {
    const parsed = CallToolRequestSchema.safeParse(request);
    if (!parsed.success) {
      this.#toClient({ jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message: `invalid tools/call params: ${parsed.error.issues.map((i) => i.message).join('; ')}` } });
      return;
    }
    const { params } = parsed.data;
    const call: ToolCall = {
      id: request.id,
      request,
      name: params.name,
      abort: new AbortController(),
      stage: 'pre',
      input: (params.arguments ?? {}) as JsonValue,
      cancelled: false,
      answered: false,
      trace: ToolCallTrace.start(request, params.name),
    };
    const key = idKey(request.id);
    this.#calls.set(key, call);
    try {
      let outcome: PreToolUseOutcome;
      try {
        outcome = await this.#runner.pre(
          { workspace: this.#options.workspace, agent_id: this.#agent, tool_call_id: String(request.id), tool_name: call.name, input: call.input },
          // MCP's tool arguments are objects: a rewrite to anything else fails that hook.
          { signal: call.abort.signal, checkInput: MCP_INPUT, trace_context: call.trace?.context },
        );
      } catch (error) {
        this.#answerResult(call, refusal(`basis-hooks: the hooks could not run (${describe(error)}); the call was not made (fail closed)`));
        return;
      }
      this.#options.onOutcome?.(outcome, call.name);
      if (call.cancelled || call.answered) return;
      if (outcome.decision === 'deny') {
        this.#answerResult(call, refusal(outcome.reason));
        return;
      }
      // A task-augmented call's result comes back later through tasks/result, past the post hooks.
      if (params.task !== undefined && this.#hasPostHooks(call.name)) {
        this.#answerError(call, ErrorCode.InvalidParams, `basis-hooks: a task-augmented tools/call cannot be run through post_tool_use hooks (their result would bypass them); call "${call.name}" without "task"`);
        return;
      }
      call.input = outcome.input;
      call.stage = 'server';
      this.#atServer.set(key, request.id);
      const rewritten: JSONRPCRequest = outcome.modified ? { ...request, params: { ...request.params, arguments: outcome.input as Record<string, unknown> } } : request;
      const forward = call.trace === undefined ? rewritten : call.trace.forward(rewritten);
      this.#toServer(forward, request.id);
    } finally {
      if (call.stage === 'pre') this.#calls.delete(key);
    }
  }

  /** Relay to the server; a request that cannot be written is answered with an error (the server is gone). */
  #toServer(message: JSONRPCMessage, id?: RequestId): void {
    this.#server.send(message).catch((error: unknown) => {
      this.#log(`could not write to the MCP server: ${describe(error)}`);
      if (id === undefined || !this.#atServer.delete(idKey(id))) return;
      const text = `basis-hooks: could not reach the MCP server (${describe(error)})`;
      const call = this.#calls.get(idKey(id));
      if (call !== undefined) this.#answerError(call, ErrorCode.ConnectionClosed, text);
      else this.#toClient({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: text } });
    });
  }

  // ── server → client ──────────────────────────────────────────────────────────────────────────────

  #fromServer(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      const key = idKey(message.id);
      this.#atServer.delete(key);
      const call = this.#calls.get(key);
      if (call !== undefined && call.stage === 'server') {
        this.#track(this.#postCall(call, message));
        return;
      }
    }
    this.#toClient(message);
  }

  async #postCall(call: ToolCall, message: JSONRPCMessage): Promise<void> {
    const key = idKey(call.id);
    call.trace?.upstreamAnswered(message);
    try {
      if (call.cancelled) return;
      // A JSON-RPC error is the protocol failing (unknown tool, bad params), not a tool result: as is.
      if (!('result' in message) || !this.#hasPostHooks(call.name)) {
        this.#answer(call, message);
        return;
      }
      call.stage = 'post';
      const result = CallToolResultSchema.safeParse(message.result);
      if (!result.success) {
        this.#answerResult(call, refusal(`basis-hooks: the server's answer to "${call.name}" is not a tool result, so the post_tool_use hooks could not run on it; it was withheld (fail closed)`));
        return;
      }
      let outcome: PostToolUseOutcome;
      try {
        outcome = await this.#runner.post(
          {
            workspace: this.#options.workspace,
            agent_id: this.#agent,
            tool_call_id: String(call.id),
            tool_name: call.name,
            input: call.input,
            output: outputOf(result.data),
            is_error: result.data.isError ?? false,
          },
          { signal: call.abort.signal, trace_context: call.trace?.context },
        );
      } catch (error) {
        this.#answerResult(call, refusal(`basis-hooks: the post_tool_use hooks could not run (${describe(error)}); the output was withheld (fail closed)`));
        return;
      }
      this.#options.onOutcome?.(outcome, call.name);
      if (call.cancelled) return;
      const replaced = resultAfterHooks(outcome);
      if (replaced === undefined) this.#answer(call, message);
      else this.#answerResult(call, replaced);
    } finally {
      this.#calls.delete(key);
    }
  }

  /** Answer a call once, with the server's own message. */
  #answer(call: ToolCall, message: JSONRPCMessage): void {
    if (call.answered || call.cancelled) return;
    call.answered = true;
    call.trace?.end(message);
    this.#toClient(message);
  }

  /** Answer a call once, with a result of ours. */
  #answerResult(call: ToolCall, result: CallToolResult): void {
    this.#answer(call, { jsonrpc: '2.0', id: call.id, result });
  }

  #answerError(call: ToolCall, code: number, message: string): void {
    this.#answer(call, { jsonrpc: '2.0', id: call.id, error: { code, message } });
  }

  #toClient(message: JSONRPCMessage): void {
    this.#client.send(message).catch((error: unknown) => this.#log(`could not write to the client: ${describe(error)}`));
  }

  // ── endings ──────────────────────────────────────────────────────────────────────────────────────

  async #serverExited(exit: ServerExit): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    const status = exitStatus(exit);
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
    const message = `the MCP server ${how} before answering`;
    for (const [key, id] of this.#atServer) {
      const call = this.#calls.get(key);
      if (call !== undefined) this.#answerError(call, ErrorCode.ConnectionClosed, message);
      else this.#toClient({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } });
    }
    this.#atServer.clear();
    for (const call of this.#calls.values()) {
      if (call.stage !== 'pre') continue;
      this.#answerError(call, ErrorCode.ConnectionClosed, `${message}; the call was not made`);
      call.abort.abort();
    }
    // Post chains already have the server's result: let them finish and answer.
    await this.#settled();
    await this.#end({ reason: 'server_exited', status, server: exit });
  }

  async #clientGone(): Promise<void> {
    await this.#shutdown('client_closed', 0);
  }

  async #shutdown(reason: 'client_closed' | 'stopped', status: number): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    for (const call of this.#calls.values()) {
      call.cancelled = true;
      call.abort.abort();
    }
    await this.#server.close();
    await this.#settled();
    await this.#end({ reason, status });
  }

  async #end(end: GatewayEnd): Promise<void> {
    await this.#client.close().catch(() => undefined);
    this.#resolveEnd(end);
  }

  #track(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => this.#log(`internal error: ${describe(error)}`)).finally(() => this.#tasks.delete(tracked));
    this.#tasks.add(tracked);
  }

  async #settled(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
