import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { PostToolUseOutcome, PreToolUseOutcome } from '../../contract/outcome.js';
import type { HookRunner } from '../../runner/runner.js';
import { Conversation } from './conversation.js';
import type { Era } from './era.js';
import { Exposure, type ExposeRuleInput } from './expose.js';
import { errorResponse, RpcCode } from './jsonrpc/errors.js';
import { LineSplitter } from './jsonrpc/lines.js';
import type { UnknownMethods } from './jsonrpc/methods.js';
import { readText } from './jsonrpc/read.js';
import { TaskSeal } from './task-handles.js';
import { ToolHooks } from './tool-hooks.js';
import { Upstreams, type OpenUpstream, type UpstreamTarget } from './upstream/connect.js';
import { DEFAULT_MAX_MESSAGE_BYTES, exitStatus, type ServerCommand, type ServerExit } from './upstream/server-process.js';
import { describeExit } from './upstream/stdio-link.js';

/** The default `--upstream-timeout`: how long a request may wait for the server's answer (progress restarts it). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10 * 60 * 1000;

/** Options every gateway front shares. */
export interface GatewayCommonOptions {
  /** The chain run on every `tools/call` (the gateway wraps it so a `modify` must yield an object). */
  readonly runner: HookRunner;
  /** The `workspace` of a call nothing else names one for (the CLI's default: its working directory). */
  readonly workspace: string;
  /** The `agent_id` of a call nothing else names one for (after the token, `_meta` and `initialize`). */
  readonly agentId?: string | undefined;
  /** The config's `expose` rules: which tools each agent may list and call. */
  readonly expose?: readonly ExposeRuleInput[] | undefined;
  /** What to do with methods the gateway does not know (default `refuse`; see {@link UnknownMethods}). */
  readonly unknownMethods?: UnknownMethods | undefined;
  /** How long a request may wait for the server's answer, in ms; progress restarts it; 0: forever. */
  readonly upstreamTimeoutMs?: number | undefined;
  /** Largest message read from either side, in bytes. */
  readonly maxMessageBytes?: number | undefined;
  /** The era the server speaks, when the operator knows (skips the `server/discover` probe). */
  readonly upstreamEra?: Era | undefined;
  /** The key sealing 2026-07-28 task handles (replicas share it; default: random per process). */
  readonly stateSecret?: Buffer | undefined;
  /** Diagnostics (never on the protocol stream). */
  readonly log?: ((line: string) => void) | undefined;
  /** Called with every chain outcome, for an audit trail. */
  readonly onOutcome?: ((outcome: PreToolUseOutcome | PostToolUseOutcome, tool: string) => void) | undefined;
}

/** Options of {@link McpGateway.start}: the stdio front. */
export interface GatewayOptions extends GatewayCommonOptions {
  /** The MCP server to spawn and speak to over stdio. */
  readonly server?: ServerCommand;
  /** Or: the Streamable HTTP server to speak to. */
  readonly upstream?: { readonly url: URL; readonly headers?: Readonly<Record<string, string>> };
  /** Where the client's messages come from (default process.stdin). */
  readonly input?: Readable;
  /** Where messages to the client go (default process.stdout). Nothing but protocol is written here. */
  readonly output?: Writable;
}

/** Why the gateway ended, and the exit status it ends with. */
export interface GatewayEnd {
  readonly reason: 'server_exited' | 'client_closed' | 'stopped';
  readonly status: number;
  /** How the server ended, when it ended by itself. */
  readonly server?: ServerExit;
}

export { UNKNOWN_CLIENT } from './identity.js';

/** The upstream target of a front's options. */
export function targetOf(options: Pick<GatewayOptions, 'server' | 'upstream'>): UpstreamTarget {
  if (options.upstream !== undefined) return { kind: 'http', url: options.upstream.url, headers: options.upstream.headers ?? {} };
  if (options.server !== undefined) return { kind: 'stdio', server: options.server };
  throw new Error('a gateway needs a server command or an upstream URL');
}

/** What the fronts share, built once from their options. */
export function gatewayParts(options: GatewayCommonOptions, target: UpstreamTarget): { hooks: ToolHooks; exposure: Exposure; seal: TaskSeal; upstreams: Upstreams } {
  const log = options.log ?? (() => undefined);
  const record = options.runner.audited ? (event: Parameters<HookRunner['record']>[0]) => options.runner.record(event) : undefined;
  return {
    hooks: new ToolHooks(options.runner, { onOutcome: options.onOutcome }),
    exposure: new Exposure(options.expose),
    seal: new TaskSeal(options.stateSecret ?? randomBytes(32)),
    upstreams: new Upstreams(target, {
      timeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      era: options.upstreamEra,
      log,
      record,
    }),
  };
}

/**
 * A stdio MCP gateway: the client speaks MCP to it on stdin/stdout; it speaks MCP to the server —
 * one it spawned (stdio), or a remote one (Streamable HTTP) — and every `tools/call` goes through the
 * hook chain: the pre hooks before the server sees it, the post hooks on the result before the
 * client does. What else crosses, and under which ids, is the {@link Conversation}'s to decide (see
 * docs/mcp-gateway.md, "Guarantees").
 *
 * - A call a hook denies — or a hook that fails closed — is answered with an `isError` result naming
 *   the reason; the server never sees it.
 * - `tools/call`s are handled concurrently, each with its own chain.
 * - A cancelled call is not answered; a cancel for a call still in the pre chain stops the chain and
 *   never reaches the server.
 * - When a spawned server exits, every request it had not answered gets a JSON-RPC error and the
 *   gateway ends with the server's exit status; when the client goes away, the server is stopped.
 *
 * @example
 * const gateway = await McpGateway.start({ runner, server: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '/data'] }, workspace: '/data' });
 * process.exitCode = (await gateway.ended).status;
 */
export class McpGateway {
  readonly #open: OpenUpstream;
  readonly #upstreams: Upstreams;
  readonly #conversation: Conversation;
  readonly #options: GatewayOptions;
  readonly #input: Readable;
  readonly #output: Writable;
  #ending = false;
  #resolveEnd!: (end: GatewayEnd) => void;
  /** Resolves once the gateway has stopped: the server is gone and every answer was written. */
  readonly ended: Promise<GatewayEnd>;

  private constructor(options: GatewayOptions, open: OpenUpstream, parts: ReturnType<typeof gatewayParts>) {
    this.#options = options;
    this.#open = open;
    this.#upstreams = parts.upstreams;
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#conversation = new Conversation({
      upstream: open.session,
      peer: { send: (message) => this.#toClient(message), takesRequests: true },
      hooks: parts.hooks,
      exposure: parts.exposure,
      identity: { agentId: options.agentId, workspace: options.workspace },
      seal: parts.seal,
      record: options.runner.audited ? (event) => options.runner.record(event) : undefined,
      unknownMethods: options.unknownMethods,
      log: (line) => this.#log(line),
    });
    open.session.link.onServerMessage = (message) => this.#conversation.fromServer(message);
    this.ended = new Promise((resolve) => (this.#resolveEnd = resolve));
  }

  /**
   * Start the server (or reach it), learn its era, and start relaying. Rejects (with nothing left
   * running) when the server cannot be started or reached. Messages the client sent before this
   * resolved are read, not lost.
   */
  static async start(options: GatewayOptions): Promise<McpGateway> {
    const parts = gatewayParts(options, targetOf(options));
    const open = await parts.upstreams.open(true);
    const gateway = new McpGateway(options, open, parts);
    gateway.#wire();
    return gateway;
  }

  /** The server's pid (a spawned server). */
  get serverPid(): number | undefined {
    return this.#open.process?.pid;
  }

  #wire(): void {
    const max = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const lines = new LineSplitter(
      max,
      (line) => this.#conversation.receive(readText(line)),
      (line) => {
        this.#log(`the client sent a message of ${line.bytes} bytes, over --max-message-bytes (dropped unread)`);
        this.#toClient(errorResponse(null, RpcCode.InvalidRequest, `basis-hooks: message of ${line.bytes} bytes refused: over the gateway's --max-message-bytes (${max})`));
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
    void this.#open.process?.exited.then((exit) => this.#serverExited(exit));
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
    await this.#open.close();
    await this.#conversation.settled();
    await this.#end({ reason, status });
  }

  async #end(end: GatewayEnd): Promise<void> {
    this.#upstreams.destroy();
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
