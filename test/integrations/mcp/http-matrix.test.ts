import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir } from '../../helpers/guests.js';
import { connect, EVERYTHING, gatewayArgv } from '../../helpers/mcp.js';
import { everythingHttp, httpGateway, legacyHttpClient, ModernClient, MODERN_SERVER, modernHttp, stopAll } from '../../helpers/mcp-http.js';

/*
 * Every pairing the gateway serves, each with the same hooks doing their work: the client over stdio
 * or Streamable HTTP × the server over stdio or Streamable HTTP × a 2025-11-25 or 2026-07-28 client ×
 * a 2025-11-25 (server-everything) or 2026-07-28 (the fixture, on the SDK's Server) server. The
 * clients are the official SDK's (2025-11-25) and a 2026-07-28 client built on the SDK's Protocol.
 */

const SECRET = `ghp_${'M1n2B3v4C5'.repeat(3)}abcdef`;
let scratch: string;
let config: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-matrix-'));
  const redactor = path.join(guestBuildDir('c'), 'redact.wasm');
  await ensureGuestsBuilt('c', [redactor]);
  config = path.join(scratch, 'hooks.json');
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'no-forbidden', event: 'pre_tool_use', command: `input=$(cat); case "$input" in *forbidden*) echo '{"decision":"deny","reason":"the word is forbidden"}';; *) echo '{"decision":"allow"}';; esac` },
        { name: 'redact', event: 'post_tool_use', component: redactor },
      ],
    }),
  );
}, 120_000);
afterEach(stopAll);
afterAll(() => rm(scratch, { recursive: true, force: true }));

type Side = 'stdio' | 'http';
type Era = 'legacy' | 'modern';

/** One client, whichever era: call a tool and list the tools, the answers as plain JSON. */
interface AnyClient {
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult & { resultType?: string }>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

function fromLegacy(client: Client): AnyClient {
  return {
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    close: () => client.close(),
  };
}

function fromModern(client: ModernClient): AnyClient {
  return {
    callTool: async (name, args) => (await client.call('tools/call', { name, arguments: args })) as CallToolResult,
    toolNames: async () => ((await client.call('tools/list')).tools as Array<{ name: string }>).map((t) => t.name),
    close: () => client.close(),
  };
}

async function open(clientSide: Side, serverSide: Side, clientEra: Era, serverEra: Era): Promise<AnyClient> {
  let server: { server: readonly string[] } | { url: string };
  if (serverSide === 'stdio') server = { server: serverEra === 'legacy' ? EVERYTHING : MODERN_SERVER };
  else server = { url: (serverEra === 'legacy' ? await everythingHttp() : await modernHttp()).url };
  if (clientSide === 'http') {
    const gateway = await httpGateway(config, server);
    return clientEra === 'legacy' ? fromLegacy(await legacyHttpClient(gateway.url)) : fromModern(await ModernClient.http(gateway.url));
  }
  const [serverArgv, flags] = 'url' in server ? [[], ['--upstream', server.url]] : [server.server, []];
  if (clientEra === 'legacy') return fromLegacy((await connect(config, serverArgv, { flags })).client);
  return fromModern(await ModernClient.stdio(gatewayArgv(config, serverArgv, flags)));
}

const SIDES: Side[] = ['stdio', 'http'];
const ERAS: Era[] = ['legacy', 'modern'];

describe('every pairing: the hooks run, the answers arrive, in the client\'s era', () => {
  for (const clientSide of SIDES) {
    for (const serverSide of SIDES) {
      for (const clientEra of ERAS) {
        for (const serverEra of ERAS) {
          it(`${clientEra} client over ${clientSide} ↔ ${serverEra} server over ${serverSide}`, async () => {
            const client = await open(clientSide, serverSide, clientEra, serverEra);
            try {
              expect(await client.toolNames()).toContain('echo');
              const echoed = await client.callTool('echo', { message: 'hello', text: 'hello' });
              expect(echoed.content).toEqual([{ type: 'text', text: serverEra === 'legacy' ? 'Echo: hello' : 'echo: hello' }]);
              // The pre chain ran: a call it denies never reaches the server.
              const denied = await client.callTool('echo', { message: 'forbidden', text: 'forbidden' });
              expect(denied).toMatchObject({ content: [{ type: 'text', text: 'the word is forbidden' }], isError: true });
              // The post chain ran: the C redactor took the secret out of the result.
              const redacted = await client.callTool('echo', { message: SECRET, text: SECRET });
              expect(JSON.stringify(redacted)).not.toContain(SECRET);
              expect(JSON.stringify(redacted.content)).toContain('[REDACTED]');
              // Results are in the client's era: 2026-07-28 results say they are complete.
              if (clientEra === 'modern') for (const result of [echoed, denied, redacted]) expect(result.resultType).toBe('complete');
            } finally {
              await client.close();
            }
          }, 60_000);
        }
      }
    }
  }
});
