/**
 * The MCP gateway through its library API (`McpGateway.start`) with in-process hooks: the client
 * end is a pair of streams the test writes JSON-RPC lines to and reads them from, the server a real
 * subprocess. Fast enough for property tests (thousands of calls on one gateway), while the server,
 * the framing and the gateway are the real ones.
 */
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import type { HookRequest } from '../../host/contract/request.js';
import type { HookResponse } from '../../host/contract/response.js';
import { McpGateway, type GatewayOptions } from '../../host/integrations/mcp/index.js';
import { HookRunner } from '../../host/runner/runner.js';
import { interceptorTransport } from '../../host/transports/in-process/index.js';
import { ROOT } from './guests.js';

/** The hostile server of test/fixtures/mcp/hostile-server.mjs. */
export const HOSTILE_SERVER = { command: process.execPath, args: [join(ROOT, 'test/fixtures/mcp/hostile-server.mjs')] };

export type Json = { [key: string]: unknown };

/** One in-process hook. */
export interface TestHook {
  readonly name: string;
  readonly event: 'pre_tool_use' | 'post_tool_use';
  readonly handle: (request: HookRequest) => HookResponse | Promise<HookResponse>;
}

/** A gateway with a raw client on the other end. */
export interface RawGateway {
  readonly gateway: McpGateway;
  /** Write one message (or any line: tests send garbage too). */
  send(message: unknown): void;
  write(line: string): void;
  /** Everything the gateway sent the client, in order. */
  readonly received: Json[];
  /** Wait for the answer to `id` (matched with its JSON type), or throw after `ms`. */
  answer(id: string | number | null, ms?: number): Promise<Json>;
  /** Every answer to `id` so far. */
  answers(id: string | number | null): Json[];
  readonly logs: string[];
  close(): Promise<void>;
}

export async function rawGateway(hooks: readonly TestHook[], options: Partial<GatewayOptions> = {}): Promise<RawGateway> {
  const runner = new HookRunner(hooks.map((h) => ({ name: h.name, event: h.event, transport: interceptorTransport(h.handle) })));
  const input = new PassThrough();
  const output = new PassThrough();
  const received: Json[] = [];
  const logs: string[] = [];
  let buffer = '';
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      received.push(JSON.parse(buffer.slice(0, newline)) as Json);
      buffer = buffer.slice(newline + 1);
    }
  });
  const gateway = await McpGateway.start({ runner, server: HOSTILE_SERVER, workspace: ROOT, input, output, log: (line) => logs.push(line), ...options });
  const answers = (id: string | number | null): Json[] => received.filter((m) => m.id === id && !('method' in m));
  return {
    gateway,
    send: (message) => input.write(`${JSON.stringify(message)}\n`),
    write: (line) => input.write(line),
    received,
    answers,
    async answer(id, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const found = answers(id)[0];
        if (found !== undefined) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no answer for ${JSON.stringify(id)}; logs: ${logs.join('\n')}`);
    },
    logs,
    async close() {
      input.end();
      await gateway.ended;
      await runner.close();
    },
  };
}

/** The hostile server's record of every message it received (through its `received` tool). */
export async function serverReceived(g: RawGateway, id: string): Promise<Json[]> {
  g.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'received', arguments: {} } });
  const answer = (await g.answer(id)) as { result: { content: [{ text: string }] } };
  return JSON.parse(answer.result.content[0].text) as Json[];
}

/** Initialize the conversation the way a client does. */
export async function handshake(g: RawGateway): Promise<void> {
  g.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'raw', version: '1' } } });
  await g.answer('init');
  g.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}
