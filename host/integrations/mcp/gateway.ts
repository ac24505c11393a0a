import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { PostToolUseOutcome, PreToolUseOutcome } from '../../contract/outcome.js';
import type { HookRunner } from '../../runner/runner.js';
import { Conversation } from './conversation.js';
import { errorResponse, RpcCode } from './jsonrpc/errors.js';
import { LineSplitter } from './jsonrpc/lines.js';
import type { UnknownMethods } from './jsonrpc/methods.js';
import { readText } from './jsonrpc/read.js';
import { ToolHooks } from './tool-hooks.js';
import { DEFAULT_MAX_MESSAGE_BYTES, exitStatus, ServerProcess, type ServerCommand, type ServerExit } from './upstream/server-process.js';
import { describeExit, StdioLink } from './upstream/stdio-link.js';

/** The default `--upstream-timeout`: how long a request may wait for the server's answer (progress restarts it). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10 * 60 * 1000;

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
  /** What to do with methods the gateway does not know (default `refuse`; see {@link UnknownMethods}). */
  readonly unknownMethods?: UnknownMethods;
  /** How long a request may wait for the server's answer, in ms; progress restarts it; 0: forever. */
  readonly upstreamTimeoutMs?: number;
  /** Largest message read from either side, in bytes. */
  readonly maxMessageBytes?: number;
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

/** The agent id used before the client said who it is (a `tools/call` before `initialize`). */
export const UNKNOWN_CLIENT = 'mcp-client';

/**
 * A stdio MCP gateway: the client speaks MCP to it on stdin/stdout, it speaks MCP to the server it
 * spawned, and every `tools/call` goes through the hook chain — the pre hooks before the server sees
 * it, the post hooks on the result before the client does. What else crosses, and under which ids,
 * is the {@link Conversation}'s to decide (see docs/mcp-gateway.md, "Guarantees").
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
  readonly #server: ServerProcess;
  readonly #link: StdioLink;
  readonly #conversation: Conversation;
  readonly #options: GatewayOptions;
  readonly #input: Readable;
  readonly #output: Writable;
  #ending = false;
  #resolveEnd!: (end: GatewayEnd) => void;
  /** Resolves once the gateway has stopped: the server is gone and every answer was written. */
  readonly ended: Promise<GatewayEnd>;

  private constructor(options: GatewayOptions, server: ServerProcess) {
    this.#options = options;
    this.#server = server;
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#link = new StdioLink(server, { label: 'the MCP server', timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS });
    this.#link.onLog = (line) => this.#log(line);
    const hooks = new ToolHooks(options.runner, { onOutcome: options.onOutcome });
    this.#conversation = new Conversation({
      upstream: this.#link,
      peer: { send: (message) => this.#toClient(message) },
      hooks,
      identity: (_request, session) => ({ workspace: options.workspace, agentId: options.agentId ?? session.clientName ?? UNKNOWN_CLIENT }),
      ...(options.unknownMethods === undefined ? {} : { unknownMethods: options.unknownMethods }),
      log: (line) => this.#log(line),
    });
    this.#link.onServerMessage = (message) => this.#conversation.fromServer(message);
    this.ended = new Promise((resolve) => (this.#resolveEnd = resolve));
  }

  /**
   * Spawn the server and start relaying. Rejects (with nothing started) when the server cannot be
   * started. Messages the client sent before this resolved are read, not lost.
   */
  static async start(options: GatewayOptions): Promise<McpGateway> {
    const server = new ServerProcess({ ...options.server, maxMessageBytes: options.maxMessageBytes ?? options.server.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES });
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
    const lines = new LineSplitter(
      this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      (line) => this.#conversation.receive(readText(line)),
      (line) => {
        this.#log(`the client sent a message of ${line.bytes} bytes, over --max-message-bytes (dropped unread)`);
        this.#toClient(errorResponse(null, RpcCode.InvalidRequest, `basis-hooks: message of ${line.bytes} bytes refused: over the gateway's --max-message-bytes (${this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES})`));
      },
    );
    this.#input.on('data', (chunk: Buffer | string) => lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    this.#input.once('end', () => {
      lines.end();
      void this.#shutdown('client_closed', 0);
    });
    this.#input.once('close', () => void this.#shutdown('client_closed', 0));
    this.#input.on('error', (error) => this.#log(`could not read from the client: ${error.message}`));
    this.#output.on('error', () => void this.#shutdown('client_closed', 0));
    void this.#server.exited.then((exit) => this.#serverExited(exit));
  }

  /** Stop relaying: the server is stopped (process group) and pending calls are dropped. */
  stop(status: number): Promise<GatewayEnd> {
    void this.#shutdown('stopped', status);
    return this.ended;
  }

  #toClient(message: JSONRPCMessage): void {
    if (this.#output.destroyed || !this.#output.writable) return;
    this.#output.write(`${JSON.stringify(message)}\n`);
  }

  // ── endings ──────────────────────────────────────────────────────────────────────────────────────

  async #serverExited(exit: ServerExit): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    // Requests at the server fail with the link (closed); those still in their pre chain are answered here.
    this.#conversation.upstreamGone(`the MCP server ${describeExit(exit)} before answering`);
    // Post chains already have the server's result: let them finish and answer.
    await this.#conversation.settled();
    await this.#end({ reason: 'server_exited', status: exitStatus(exit), server: exit });
  }

  async #shutdown(reason: 'client_closed' | 'stopped', status: number): Promise<void> {
    if (this.#ending) return;
    this.#ending = true;
    this.#conversation.clientGone();
    await this.#server.close();
    await this.#conversation.settled();
    await this.#end({ reason, status });
  }

  async #end(end: GatewayEnd): Promise<void> {
    // Everything written so far reaches the client before we say we are done.
    await new Promise<void>((resolve) => {
      if (this.#output.destroyed || !this.#output.writable || this.#output.writableLength === 0) resolve();
      else this.#output.once('drain', () => resolve()).once('error', () => resolve());
    });
    this.#resolveEnd(end);
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }
}
