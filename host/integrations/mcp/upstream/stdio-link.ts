import type { JSONRPCNotification, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { sniffNumericId } from '../jsonrpc/lines.js';
import type { Incoming } from '../jsonrpc/read.js';
import { UpstreamError, type Answer, type Related, type UpstreamCall, type UpstreamLink } from './link.js';
import { PendingCalls } from './pending.js';
import { type ServerExit, ServerProcess } from './server-process.js';

/** How a server process ended, in words: `exited with code 3`, `was killed by SIGKILL`. */
export function describeExit(exit: ServerExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
}

/**
 * An MCP server spoken to over its stdin/stdout (MCP's stdio transport). One JSON-RPC stream: the
 * link matches answers to calls by the ids it minted, routes progress by the tokens it minted, and
 * hands everything else the server sends (its requests, its other notifications) to
 * {@link onServerMessage}. When the process ends, every call still waiting fails `closed`.
 */
export class StdioLink implements UpstreamLink {
  readonly label: string;
  onServerMessage: ((message: Related) => void) | undefined;
  onLog: ((line: string) => void) | undefined;
  readonly #process: ServerProcess;
  readonly #pending: PendingCalls;
  #exit: ServerExit | undefined;

  constructor(process: ServerProcess, options: { label: string; timeoutMs: number }) {
    this.label = options.label;
    this.#process = process;
    this.#pending = new PendingCalls({
      label: options.label,
      timeoutMs: options.timeoutMs,
      log: (line) => this.#log(line),
      cancel: (id) => void this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client gave up on the request' } }).catch(() => undefined),
    });
    process.onmessage = (incoming) => this.#receive(incoming);
    process.onoversized = (line) => {
      const id = sniffNumericId(line);
      const error = new UpstreamError('bad_answer', `${this.label} answered with a message of ${line.bytes} bytes, over the gateway's --max-message-bytes; it was not read`);
      if (id === undefined || !this.#pending.fail(id, error)) this.#log(`${this.label} sent a message of ${line.bytes} bytes, over --max-message-bytes (dropped unread): ${JSON.stringify(line.head.slice(0, 80))}…`);
    };
    process.onerror = (error) => this.#log(`${this.label}: ${error.message}`);
    void process.exited.then((exit) => {
      this.#exit = exit;
      this.#pending.failAll(new UpstreamError('closed', `${this.label} ${describeExit(exit)} before answering`));
    });
  }

  /** How many calls are waiting for an answer. */
  get waiting(): number {
    return this.#pending.size;
  }

  call(call: UpstreamCall): Promise<Answer> {
    if (this.#exit !== undefined) return Promise.reject(new UpstreamError('closed', `${this.label} ${describeExit(this.#exit)}; the request was not sent`));
    const { id, request, answer } = this.#pending.open(call);
    this.#process.send(request).catch((error: unknown) => {
      this.#pending.fail(id, new UpstreamError('unreachable', `could not write to ${this.label} (${(error as Error).message})`, { cause: error }));
    });
    return answer;
  }

  notify(message: JSONRPCNotification): Promise<void> {
    return this.#process.send(message);
  }

  answer(id: RequestId, answer: Answer): Promise<void> {
    return this.#process.send({ jsonrpc: '2.0', id, ...answer } as Parameters<ServerProcess['send']>[0]);
  }

  #receive(incoming: Incoming): void {
    switch (incoming.kind) {
      case 'answer':
        this.#pending.settle(incoming.message);
        return;
      case 'notification':
        if (incoming.message.method === 'notifications/progress') {
          // Every token the server was given is one of ours: any other is stale or invented.
          if (!this.#pending.progress(incoming.message)) this.#log(`${this.label} sent progress for token ${JSON.stringify(incoming.message.params?.progressToken)}, which belongs to no request waiting (dropped)`);
          return;
        }
        this.onServerMessage?.(incoming.message);
        return;
      case 'request':
        this.onServerMessage?.(incoming.message);
        return;
      case 'invalid':
        this.#log(`${this.label} sent ${incoming.reason} (dropped)`);
        return;
    }
  }

  #log(line: string): void {
    this.onLog?.(line);
  }
}
