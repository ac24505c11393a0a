import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/guests.js';
import { connect, eventually } from '../../helpers/mcp.js';
import { httpGateway, legacyHttpClient, MODERN_SERVER, modernHttp, stopAll } from '../../helpers/mcp-http.js';

/*
 * A 2026-07-28 server's multi round-trip calls (`input_required` with `inputRequests`) in front of a
 * 2025-11-25 client, which knows no such result: the gateway puts each input request to the client
 * as the 2025-11-25 request it is (elicitation/create, sampling/createMessage, roots/list) and retries
 * the call with the answers. The official SDK's `Client` on both transports; the modern fixture is
 * built on the SDK's `Server`.
 */

const RECORD = path.join(ROOT, 'test/fixtures/mcp/record-hook.mjs');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-eras-input-'));
});
afterEach(stopAll);
afterAll(() => rm(scratch, { recursive: true, force: true }));

type Recorded = { event: string; tool_name: string; input: Record<string, unknown>; output?: unknown };
function recorded(file: string): Recorded[] {
  return existsSync(file) ? (readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) as Recorded[]) : [];
}

/** A config recording every pre and post call to `name`-pre/-post.jsonl. */
async function recording(name: string): Promise<{ config: string; pre: string; post: string }> {
  const pre = path.join(scratch, `${name}-pre.jsonl`);
  const post = path.join(scratch, `${name}-post.jsonl`);
  const config = path.join(scratch, `${name}.json`);
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'pre', event: 'pre_tool_use', command: [process.execPath, RECORD, pre] },
        { name: 'post', event: 'post_tool_use', command: [process.execPath, RECORD, post] },
      ],
    }),
  );
  return { config, pre, post };
}

const CAPABILITIES = { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } };

/** What the client was asked, in order (method and the params' telling part). */
function answering(asked: string[], options: { refuseElicitation?: boolean } = {}) {
  return (client: Client): void => {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(`elicitation/create ${(request.params as { message?: string }).message}`);
      if (options.refuseElicitation === true) throw new McpError(-32001, 'the user closed the dialog');
      return { action: 'accept', content: { note: 'ship it' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(`sampling/createMessage ${JSON.stringify(request.params.messages[0]?.content)}`);
      return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'a short summary' } };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked.push('roots/list');
      return { roots: [{ uri: 'file:///work/basis-root', name: 'basis-root' }] };
    });
  };
}

describe("a 2026-07-28 server's input requests, put to a 2025-11-25 client", () => {
  it('over HTTP: each input request reaches the client as its own request; the call is retried with the answers; pre chain once, post chain on the complete result', async () => {
    const { config, pre, post } = await recording('http');
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const asked: string[] = [];
    const client = await legacyHttpClient(gateway.url, { client: CAPABILITIES, setup: answering(asked) });

    expect(await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } })).toMatchObject({ content: [{ type: 'text', text: 'confirmed deploy' }] });
    expect(asked).toEqual(['elicitation/create Really deploy?']);

    // Two rounds, the first asking two things at once.
    asked.length = 0;
    expect(await client.callTool({ name: 'survey', arguments: { topic: 'q3' } })).toMatchObject({ content: [{ type: 'text', text: 'survey of q3: ship it' }] });
    expect(asked).toEqual(['roots/list', 'sampling/createMessage {"type":"text","text":"Summarise q3"}', 'elicitation/create Publish file:///work/basis-root / a short summary?']);

    // The hooks: one pre per call the client made (not per round), one post per complete result.
    expect(recorded(pre).map((r) => r.tool_name)).toEqual(['confirm', 'survey']);
    expect(recorded(post).map((r) => [r.tool_name, (r.output as { content?: Array<{ text: string }> }).content?.[0]?.text])).toEqual([
      ['confirm', 'confirmed deploy'],
      ['survey', 'survey of q3: ship it'],
    ]);

    // What the server got: each retry is the original call with only that round's answers and state, under a new id.
    const calls = (await upstream.received()).filter((r) => r.body.method === 'tools/call' && (r.body.params as { name?: string }).name === 'survey');
    expect(calls.map((r) => [r.body.params?.requestState, Object.keys((r.body.params?.inputResponses as object | undefined) ?? {}).sort()])).toEqual([
      [undefined, []],
      ['survey-1', ['roots', 'summary']],
      ['survey-2', ['sure']],
    ]);
    expect(new Set(calls.map((r) => (r.body as { id?: unknown }).id)).size).toBe(3);
    expect(calls.every((r) => (r.body.params?.arguments as { topic?: string }).topic === 'q3')).toBe(true);
    await client.close();
  });

  it('over stdio: the same through the stdio gateway in front of a stdio 2026-07-28 server', async () => {
    const { config, pre, post } = await recording('stdio');
    const asked: string[] = [];
    const via = await connect(config, MODERN_SERVER, { client: CAPABILITIES, setup: answering(asked) });
    expect(await via.client.callTool({ name: 'survey', arguments: { topic: 'q4' } })).toMatchObject({ content: [{ type: 'text', text: 'survey of q4: ship it' }] });
    expect(asked.map((a) => a.split(' ')[0])).toEqual(['roots/list', 'sampling/createMessage', 'elicitation/create']);
    expect(recorded(pre).map((r) => r.tool_name)).toEqual(['survey']);
    expect(recorded(post).map((r) => r.tool_name)).toEqual(['survey']);
    expect(via.clientErrors).toEqual([]);
    await via.client.close();
  });

  it('a client that answers an input request with an error: the call fails with -32603 naming it, the server is not retried, no post chain', async () => {
    const { config, post } = await recording('refused');
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const asked: string[] = [];
    const client = await legacyHttpClient(gateway.url, { client: CAPABILITIES, setup: answering(asked, { refuseElicitation: true }) });
    const error = await client.callTool({ name: 'confirm', arguments: { action: 'drop' } }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).toMatch(/answered the server's elicitation\/create with an error \(-32001/);
    expect(asked).toEqual(['elicitation/create Really drop?']);
    expect((await upstream.received()).filter((r) => r.body.method === 'tools/call')).toHaveLength(1);
    expect(recorded(post)).toEqual([]);
    await client.close();
  });

  it('a client that cancels the call while it is being asked: the gateway withdraws its request (notifications/cancelled), the server is not retried', async () => {
    const { config, post } = await recording('cancelled');
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const events: string[] = [];
    const client = await legacyHttpClient(gateway.url, {
      client: CAPABILITIES,
      setup: (c) =>
        c.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
          events.push('asked');
          // Never answered: the user walks away; the request is withdrawn.
          return new Promise((_resolve, reject) => extra.signal.addEventListener('abort', () => (events.push('withdrawn'), reject(new Error('withdrawn')))));
        }),
    });
    const abort = new AbortController();
    const call = client.callTool({ name: 'confirm', arguments: { action: 'later' } }, undefined, { signal: abort.signal }).then(() => 'answered', () => 'rejected');
    expect(await eventually(() => events.includes('asked'))).toBe(true);
    abort.abort();
    expect(await call).toBe('rejected');
    expect(await eventually(() => events.includes('withdrawn'))).toBe(true);
    expect((await upstream.received()).filter((r) => r.body.method === 'tools/call')).toHaveLength(1);
    expect(recorded(post)).toEqual([]);
    await client.close();
  });
});
