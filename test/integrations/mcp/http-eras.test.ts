import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir, ROOT } from '../../helpers/guests.js';
import { EVERYTHING } from '../../helpers/mcp.js';
import { httpGateway, legacyHttpClient, ModernClient, modernHttp, stopAll } from '../../helpers/mcp-http.js';

/*
 * What is particular to each era through the gateway: 2026-07-28's multi round-trip calls, tasks,
 * mirrored headers (rewritten with the arguments), version errors; and the translations between eras.
 */

const SECRET = `ghp_${'P0o9I8u7Y6'.repeat(3)}abcdef`;
const RECORD = path.join(ROOT, 'test/fixtures/mcp/record-hook.mjs');
let scratch: string;
let redactor: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-eras-'));
  redactor = path.join(guestBuildDir('c'), 'redact.wasm');
  await ensureGuestsBuilt('c', [redactor]);
}, 120_000);
afterEach(stopAll);
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function configWith(name: string, hooks: Record<string, unknown>[]): Promise<string> {
  const file = path.join(scratch, `${name}.json`);
  await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }));
  return file;
}

/** The requests a recording hook got. */
function recorded(file: string): Array<{ event: string; tool_name: string; input: Record<string, unknown>; agent_id: string; output?: unknown }> {
  return existsSync(file) ? (readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) as never) : [];
}

/** POST one message to the gateway, as raw HTTP. */
async function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(message) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const META = (name = 'raw') => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name, version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} });

describe('2026-07-28 through the gateway', () => {
  it('a multi round-trip call: each retry runs the pre chain; only the complete result runs the post chain', async () => {
    const pre = path.join(scratch, 'mrtr-pre.jsonl');
    const postLog = path.join(scratch, 'mrtr-post.jsonl');
    const config = await configWith('mrtr', [
      { name: 'pre', event: 'pre_tool_use', command: [process.execPath, RECORD, pre] },
      { name: 'post', event: 'post_tool_use', command: [process.execPath, RECORD, postLog] },
    ]);
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const client = await ModernClient.http(gateway.url, { capabilities: { elicitation: { form: {} } } });
    const first = await client.call('tools/call', { name: 'confirm', arguments: { action: 'deploy' } });
    expect(first).toMatchObject({ resultType: 'input_required', requestState: 'confirm-1', inputRequests: { ok: { method: 'elicitation/create' } } });
    expect(recorded(postLog)).toEqual([]); // not a result: no post chain
    const second = await client.call('tools/call', { name: 'confirm', arguments: { action: 'deploy' }, inputResponses: { ok: { action: 'accept', content: {} } }, requestState: 'confirm-1' });
    expect(second).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'confirmed deploy' }] });
    expect(recorded(pre).map((r) => [r.tool_name, r.input])).toEqual([
      ['confirm', { action: 'deploy' }],
      ['confirm', { action: 'deploy' }],
    ]);
    // A 2026-07-28 result carries the server's identity in _meta: the hooks see the whole result.
    expect(recorded(postLog).map((r) => r.output)).toEqual([{ content: [{ type: 'text', text: 'confirmed deploy' }], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-fixture', version: '1.0.0' } } }]);
    await client.close();
  });

  it('a hook rewriting an argument mirrored in a header: the header is rewritten too (non-ASCII included), even before the gateway saw the tool list', async () => {
    const rewrite = `const r = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(JSON.stringify({ decision: "modify", input: { ...r.input, region: "Zürich" } }))`;
    const config = await configWith('rewrite', [{ name: 'pin-region', event: 'pre_tool_use', tools: ['region'], command: [process.execPath, '-e', rewrite] }]);
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const client = await ModernClient.http(gateway.url);
    const result = await client.call('tools/call', { name: 'region', arguments: { region: 'us-west1', query: 'q' } });
    expect(result.content).toEqual([{ type: 'text', text: 'region Zürich (header =?base64?WsO8cmljaA==?=) query q' }]);
    const calls = (await upstream.received()).filter((r) => r.body.method === 'tools/call');
    // The first try carried no Mcp-Param-Region (the gateway had not seen the tool's schema): the
    // server said HeaderMismatch, the gateway read the tool list and tried again, headers matching.
    expect(calls.map((r) => r.headers['mcp-param-region'])).toEqual([undefined, '=?base64?WsO8cmljaA==?=']);
    expect(calls.every((r) => r.headers['mcp-name'] === 'region' && r.headers['mcp-method'] === 'tools/call')).toBe(true);
    await client.close();
  });

  it('headers that do not match the body are refused (400, HeaderMismatch -32020); an unsupported version gets -32022 listing what is supported', async () => {
    const config = await configWith('plain', []);
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: META() } };
    const base = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };
    expect(await post(gateway.url, call, { ...base, 'mcp-name': 'other' })).toMatchObject({ status: 400, body: { id: 1, error: { code: -32020 } } });
    expect(await post(gateway.url, call, { ...base })).toMatchObject({ status: 400, body: { error: { code: -32020, message: expect.stringContaining('mcp-name header is missing') } } });
    expect(await post(gateway.url, call, { ...base, 'mcp-name': 'echo' })).toMatchObject({ status: 200, body: { result: { content: [{ text: 'echo: x' }] } } });
    const future = { ...call, params: { ...call.params, _meta: { ...META(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } };
    const refused = await post(gateway.url, future, { ...base, 'mcp-protocol-version': '2099-01-01', 'mcp-name': 'echo' });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) } } } });
    // 2025-11-25 methods are not 2026-07-28's: tasks/result would carry a tool result past the hooks.
    const old = { jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId: 'x', _meta: META() } };
    expect(await post(gateway.url, old, { ...base, 'mcp-method': 'tasks/result' })).toMatchObject({ status: 404, body: { error: { code: -32601 } } });
  });

  it('a task (tasks extension): the handle is sealed; its result goes through the post chain of the call that started it; forged or foreign handles are refused', async () => {
    const config = await configWith('tasks', [{ name: 'redact', event: 'post_tool_use', component: redactor }]);
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const client = await ModernClient.http(gateway.url, { name: 'agent-one', capabilities: tasks });
    const created = await client.call('tools/call', { name: 'long', arguments: { secret: SECRET } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.stringMatching(/^bh1\./) });
    let polled: Record<string, unknown> = {};
    for (let i = 0; i < 10 && polled.status !== 'completed'; i++) polled = await client.call('tasks/get', { taskId: created.taskId });
    expect(polled).toMatchObject({ status: 'completed', taskId: created.taskId, result: { content: [{ type: 'text', text: 'done: [REDACTED]' }] } });
    expect(JSON.stringify(polled)).not.toContain(SECRET);
    const other = await ModernClient.http(gateway.url, { name: 'agent-two', capabilities: tasks });
    await expect(other.call('tasks/get', { taskId: created.taskId })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('belongs to another agent') });
    await expect(client.call('tasks/get', { taskId: 'task-1' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('not a task handle') });
    const forged = `${String(created.taskId).slice(0, -4)}AAAA`;
    await expect(client.call('tasks/get', { taskId: forged })).rejects.toMatchObject({ code: -32602 });
    await client.close();
    await other.close();
  });
});

describe('translations between eras', () => {
  it('a 2025-11-25 client in front of a 2026-07-28 server: initialize from server/discover, _meta added, load shedding retried, input it did not declare refused', async () => {
    const seen = path.join(scratch, 'legacy-to-modern.jsonl');
    const config = await configWith('legacy-modern', [{ name: 'pre', event: 'pre_tool_use', command: [process.execPath, RECORD, seen] }]);
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url });
    const client = await legacyHttpClient(gateway.url);
    expect(client.getServerVersion()).toEqual({ name: 'modern-fixture', version: '1.0.0' });
    expect(await client.callTool({ name: 'state-only', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'served after shedding' }] });
    const whoami = (await client.callTool({ name: 'whoami', arguments: {} })) as unknown as { content: [{ text: string }] };
    expect(JSON.parse(whoami.content[0].text).meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'basis-http-client' } });
    const error = await client.callTool({ name: 'confirm', arguments: { action: 'x' } }).then(() => undefined, (e: unknown) => e);
    expect((error as McpError).code).toBe(-32603);
    // The client declared no elicitation capability: the gateway does not ask it (eras-input.test.ts: one that did is asked).
    expect((error as McpError).message).toMatch(/did not declare the "elicitation" capability/);
    expect(recorded(seen).map((r) => r.agent_id)).toEqual(['basis-http-client', 'basis-http-client', 'basis-http-client']);
    await client.close();
  });

  it('a 2026-07-28 client in front of a 2025-11-25 server: server/discover from the gateway\'s own initialize; results in the modern shape', async () => {
    const config = await configWith('modern-legacy', []);
    const gateway = await httpGateway(config, { server: EVERYTHING });
    const client = await ModernClient.http(gateway.url);
    const discover = await client.call('server/discover');
    expect(discover).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: expect.any(Object) }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: expect.any(String) } }, ttlMs: 0, cacheScope: 'private' });
    const tools = await client.call('tools/list');
    expect(tools).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) });
    // 404 with -32601 (the spec's answer to an unknown method over HTTP; the SDK's transport raises the status).
    await expect(client.call('subscriptions/listen', {})).rejects.toMatchObject({ code: 404, message: expect.stringMatching(/-32601.*does not translate it/) });
    await client.close();
  });
});
