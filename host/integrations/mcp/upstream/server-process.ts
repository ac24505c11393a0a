import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter, type OversizedLine } from '../jsonrpc/lines.js';
import { readText, type Incoming } from '../jsonrpc/read.js';

/** How to start the MCP server behind the gateway. */
export interface ServerCommand {
  /** Largest message (line) read from the server, in bytes (default {@link DEFAULT_MAX_MESSAGE_BYTES}). */
  readonly maxMessageBytes?: number;
  readonly command: string;
  readonly args: readonly string[];
  /** Default: the gateway's working directory. */
  readonly cwd?: string;
  /** Default: the gateway's whole environment (an MCP client configures the server's env on the gateway). */
  readonly env?: NodeJS.ProcessEnv;
}

/** How the server process ended. */
export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The exit status a shell would report for it: the code, or 128 + the signal's number. */
export function exitStatus(exit: ServerExit): number {
  if (exit.code !== null) return exit.code;
  const number = exit.signal === null ? undefined : constants.signals[exit.signal];
  return number === undefined ? 1 : 128 + number;
}

/** The default cap on one message, either side: large enough for a tool result with images. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** After the client went away: how long the server gets to exit on its own once its stdin closes, then after SIGTERM. */
export const SHUTDOWN_GRACE_MS = 2000;

/** After the server exits, how long its stdout may stay open (held by an escaped descendant) before we stop reading. */
const EXIT_GRACE_MS = 1000;

type Child = ChildProcessByStdio<Writable, Readable, null>;

/**
 * The MCP server process: one JSON-RPC message per line on its stdin and stdout (MCP's stdio
 * transport), each line read as it was sent (see {@link readText}) and capped in size. Unlike the
 * SDK's `StdioClientTransport`, the server leads its own process group (so stopping it stops what it
 * started too — `npx` runs the real server as a grandchild), inherits the whole environment, and
 * writes its stderr straight to the gateway's.
 */
export class ServerProcess {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Every line the server printed, read. */
  onmessage?: (message: Incoming) => void;
  /** A line longer than the cap (skipped unread). */
  onoversized?: (line: OversizedLine) => void;

  readonly #command: ServerCommand;
  readonly #lines: LineSplitter;
  #child: Child | undefined;
  #exit: ServerExit | undefined;
  readonly #exited: Promise<ServerExit>;
  #resolveExit!: (exit: ServerExit) => void;

  constructor(command: ServerCommand) {
    this.#command = command;
    this.#lines = new LineSplitter(
      command.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      (line) => this.onmessage?.(readText(line)),
      (line) => this.onoversized?.(line),
    );
    this.#exited = new Promise((resolve) => (this.#resolveExit = resolve));
  }

  /** Resolves when the server process has exited (and its process group was killed). */
  get exited(): Promise<ServerExit> {
    return this.#exited;
  }

  /** The server's pid once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Spawn the server. Rejects when it cannot be started (not found, not executable). */
  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error('the MCP server is already started'));
    const { command, args, cwd, env } = this.#command;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd: cwd ?? process.cwd(),
        env: env ?? process.env,
        // Its own process group: one signal reaches everything it started.
        detached: true,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      this.#child = child;
      child.once('error', (error) => {
        if (child.pid === undefined) reject(error);
        else this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stdout.once('end', () => this.#lines.end());
      child.stdout.on('error', (error) => this.onerror?.(error));
      let closed = false;
      const finish = (): void => {
        if (closed) return;
        closed = true;
        this.#resolveExit(this.#exit ?? { code: child.exitCode, signal: child.signalCode });
        this.onclose?.();
      };
      child.once('exit', (code, signal) => {
        // The leader is gone: whatever it left in its group goes with it.
        signalGroup(child.pid, 'SIGKILL');
        this.#exit = { code, signal };
        // Only a descendant that left the group (setsid) can hold stdout open past this.
        setTimeout(() => {
          child.stdout.destroy();
          finish();
        }, EXIT_GRACE_MS).unref();
      });
      // 'close' comes after 'exit' and after stdout ended, so every message it printed was delivered.
      child.once('close', finish);
    });
  }

  #read(chunk: Buffer): void {
    this.#lines.push(chunk);
  }

  /** Write one message to the server's stdin, waiting out backpressure. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || stdin.destroyed || !stdin.writable) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Stop the server the way MCP's stdio transport says a client does: close its stdin and let it
   * exit; after {@link SHUTDOWN_GRACE_MS} SIGTERM its process group; after as long again, SIGKILL.
   * Resolves once it has exited.
   */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    child.stdin.end();
    const exited = this.#exited.then(() => true);
    const waited = (ms: number): Promise<boolean> =>
      Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    if (await waited(SHUTDOWN_GRACE_MS)) return;
    signalGroup(child.pid, 'SIGTERM');
    if (await waited(SHUTDOWN_GRACE_MS)) return;
    signalGroup(child.pid, 'SIGKILL');
    await this.#exited;
  }

  /** Kill the server's process group at once (the gateway itself is going down). */
  kill(): void {
    signalGroup(this.#child?.pid, 'SIGKILL');
  }
}

function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}
