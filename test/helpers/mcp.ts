/**
 * The MCP gateway as a user runs it — `node dist/cli/main.js mcp --config … -- <server>` — with the
 * official SDK `Client` on the other end of its stdio, and the official reference servers installed
 * as devDependencies (run from node_modules: offline, no npx download).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from './guests.js';

/** The built CLI (`npm run build`). */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** `@modelcontextprotocol/server-everything`, stdio mode. */
export const EVERYTHING = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
/** `@modelcontextprotocol/server-filesystem`; append the allowed directories. */
export const FILESYSTEM = [process.execPath, join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')];
/** A tiny SDK server whose `exit` tool exits mid-call with the code given. */
export const EXITING_SERVER = [process.execPath, join(ROOT, 'test/fixtures/mcp/exiting-server.mjs')];

/**
 * A child process as an SDK {@link Transport} (the SDK's own framing), keeping what a test needs to
 * see that `StdioClientTransport` hides: the exit status, the pid and everything on stderr.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  #stderr = '';
  /** Every line on stdout that was not a JSON-RPC message (must stay empty: stdout is the protocol). */
  readonly garbage: string[] = [];
  /** Resolves with the exit status (128 + signal number for a signal). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = ROOT) {
    const [file, ...args] = argv;
    if (file === undefined) throw new Error('empty argv');
    this.#child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString('utf8')));
    this.#child.stdin.on('error', () => {});
    this.#child.stdout.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#buffer.readMessage();
        } catch (error) {
          this.garbage.push(String(error));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    this.exited = new Promise((resolve) => this.#child.once('close', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => this.onclose?.());
  }

  get pid(): number {
    const pid = this.#child.pid;
    if (pid === undefined) throw new Error('not started');
    return pid;
  }

  get stderr(): string {
    return this.#stderr;
  }

  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#child.stdin.write(serializeMessage(message))) resolve();
      else this.#child.stdin.once('drain', resolve);
    });
  }

  /** Close the gateway's stdin (the client goes away) and wait for it to exit. */
  async close(): Promise<void> {
    this.#child.stdin.end();
    await this.exited;
  }

  kill(signal: NodeJS.Signals): void {
    this.#child.kill(signal);
  }

  /** Write raw bytes (for protocol-level tests). */
  write(text: string): void {
    this.#child.stdin.write(text);
  }
}

/** argv of `basis-hooks mcp` for a config and a server. */
export function gatewayArgv(config: string, server: readonly string[], flags: readonly string[] = []): string[] {
  return [process.execPath, CLI, 'mcp', '--config', config, ...flags, '--', ...server];
}

export interface Connected {
  readonly client: Client;
  readonly gateway: ProcessTransport;
  /** Errors the SDK client reported (unparseable messages, unknown ids...). */
  readonly clientErrors: Error[];
}

/** Spawn the gateway and connect the official SDK client to it (initialize handshake included). */
export async function connect(
  config: string,
  server: readonly string[],
  options: { flags?: readonly string[]; client?: ClientOptions; setup?: (client: Client) => void; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Connected> {
  const gateway = new ProcessTransport(gatewayArgv(config, server, options.flags), options.env, options.cwd);
  const client = new Client({ name: 'basis-test-client', version: '1.0.0' }, options.client ?? { capabilities: {} });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  options.setup?.(client);
  await client.connect(gateway);
  return { client, gateway, clientErrors };
}

/** Connect the SDK client straight to a server (the baseline a gateway must be indistinguishable from). */
export async function connectDirect(server: readonly string[], options: { client?: ClientOptions; setup?: (client: Client) => void } = {}): Promise<Connected> {
  const gateway = new ProcessTransport(server);
  const client = new Client({ name: 'basis-test-client', version: '1.0.0' }, options.client ?? { capabilities: {} });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  options.setup?.(client);
  await client.connect(gateway);
  return { client, gateway, clientErrors };
}

/** Direct children of `pid` (through /proc). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Live members of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** Poll until `check` holds (or give up after `ms`); returns whether it held. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
