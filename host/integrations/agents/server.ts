import { chmod, lstat, mkdir, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
export { defaultSocketPath } from './socket-path.js';
import path from 'node:path';
import type { HookRunner } from '../../runner/runner.js';
import { contextFromCarrier } from '../../telemetry/propagation.js';
import { serveHookHttp, type HookHttpServer, type HookRequestIn, type HookResponseOut, type RefusalCode } from '../shared/hook-http.js';
import { handleAgentEvent } from './handle.js';
import { isAgentName, type AgentName } from './names.js';
import { agentDialect } from './registry.js';
import type { AgentReply } from './types.js';

/** The path of an agent's endpoint: `POST /v1/hook/<agent>` with the agent's event as the body. */
export const HOOK_PATH = /^\/v1\/hook\/([a-z-]+)$/;

/** The default largest event, as for the Claude Code bridge (measured there): 8 MiB. */
export const AGENT_MAX_BODY = 8 * 1024 * 1024;

/**
 * A reply on the wire: exit 0 is `200` with stdout as the body; any other exit is `409` with stderr
 * as the body and the exit status in `X-Basis-Exit`. So a client as small as `curl --fail-with-body`
 * prints the body and exits 0 on success, and maps any failure to the agent's block.
 */
export function replyToHttp(reply: AgentReply): HookResponseOut {
  return reply.exit === 0 ? { status: 200, raw: reply.stdout } : { status: 409, raw: reply.stderr };
}

/** The chain a server answers with, swapped atomically on reload. */
export interface ChainHolder {
  /** The current chain and its options; a call keeps the chain it started with. */
  acquire(): { readonly runner: HookRunner; readonly toolNames: 'native' | 'canonical'; release(): void };
}

/** Options of {@link serveAgents}. */
export interface AgentServerOptions {
  readonly chain: ChainHolder;
  /** A Unix socket (mode 0600, in a 0700 directory) and/or a loopback TCP address. */
  readonly socket?: string;
  readonly tcp?: { readonly host: string; readonly port: number; readonly token: string };
  readonly maxBodyBytes?: number;
  readonly onRefusal?: (code: RefusalCode, message: string) => void;
}

/** A running resident server. */
export interface AgentServer {
  readonly urls: readonly string[];
  readonly servers: readonly HookHttpServer[];
  /** Stop accepting, let in-flight events finish, remove the socket. */
  close(): Promise<void>;
}

function agentOf(urlPath: string): AgentName | undefined {
  const name = HOOK_PATH.exec(urlPath)?.[1];
  return name !== undefined && isAgentName(name) ? name : undefined;
}

/**
 * The resident hook server: one chain, loaded once, answering every agent dialect at
 * `POST /v1/hook/<agent>` — over a Unix socket (HTTP framing; the file mode is the access control)
 * and, optionally, loopback TCP with a bearer token. Both sit behind the guarded front of the HTTP
 * bridge (Origin, Host, Content-Type, size, concurrency, deadlines). A refusal an agent's own client
 * could meet is answered with that agent's block.
 */
export async function serveAgents(options: AgentServerOptions): Promise<AgentServer> {
  const maxBodyBytes = options.maxBodyBytes ?? AGENT_MAX_BODY;
  const refuse = (code: RefusalCode, message: string, urlPath: string): HookResponseOut => {
    const agent = agentOf(urlPath);
    if (code === 'method' || agent === undefined) return { status: code === 'method' ? 404 : 403, body: { error: message } };
    if (code === 'origin' || code === 'host' || code === 'content_type') return { status: 403, body: { error: message } };
    return replyToHttp(agentDialect(agent).block(message));
  };
  const handle = async ({ path: urlPath, body, trace }: HookRequestIn): Promise<HookResponseOut> => {
    const agent = agentOf(urlPath) as AgentName;
    const chain = options.chain.acquire();
    try {
      return replyToHttp(await handleAgentEvent(chain.runner, agent, body, { maxLength: maxBodyBytes, toolNames: chain.toolNames, traceContext: contextFromCarrier(trace) }));
    } finally {
      chain.release();
    }
  };
  const common = {
    maxBodyBytes,
    refuse,
    handle,
    acceptPath: (p: string) => agentOf(p) !== undefined,
    ...(options.onRefusal === undefined ? {} : { onRefusal: options.onRefusal }),
  };
  const servers: HookHttpServer[] = [];
  try {
    if (options.socket !== undefined) {
      await prepareSocket(options.socket);
      const server = await serveHookHttp({ ...common, listen: { socket: options.socket } });
      servers.push(server);
      await chmod(options.socket, 0o600);
    }
    if (options.tcp !== undefined) servers.push(await serveHookHttp({ ...common, listen: { port: options.tcp.port, host: options.tcp.host }, token: options.tcp.token }));
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  return {
    urls: servers.map((s) => s.url),
    servers,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      if (options.socket !== undefined) await rm(options.socket, { force: true });
    },
  };
}

/** Why a socket cannot be served: another server answers there, or its directory is not ours alone. */
export class SocketInUseError extends Error {
  override readonly name = 'SocketInUseError' as const;
  readonly code: 'in_use' | 'unsafe_directory';

  constructor(code: SocketInUseError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

/** Make the socket's directory (0700, ours), and clear a stale socket — never a live one. */
async function prepareSocket(socket: string): Promise<void> {
  const dir = path.dirname(socket);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (info.uid !== os.userInfo().uid || (info.mode & 0o077) !== 0) {
    throw new SocketInUseError('unsafe_directory', `the socket directory ${dir} must belong to this user and be closed to others (mode 0700): another user could reach or replace the socket`);
  }
  const existing = await lstat(socket).catch(() => undefined);
  if (existing === undefined) return;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = connect(socket, () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
  if (alive) throw new SocketInUseError('in_use', `a server already answers on ${socket} (stop it, or give another --socket)`);
  await rm(socket, { force: true });
}
