import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CallToolResultSchema, CreateMessageRequestSchema, CreateTaskResultSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir, ROOT } from '../../helpers/guests.js';
import { connect, eventually, type Connected } from '../../helpers/mcp.js';

/*
 * The official SDK Client ↔ `basis-hooks mcp` (the built CLI) ↔ a hostile server of our own making
 * (test/fixtures/mcp/hostile-server.mjs): the attacks of issue 20 (items 3–5), end to end, with the
 * C redactor component from guest-examples as the post hook.
 */

const HOSTILE = [process.execPath, path.join(ROOT, 'test/fixtures/mcp/hostile-server.mjs')];
const SECRET = `ghp_${'Q1w2E3r4T5'.repeat(3)}abcdef`;

let scratch: string;
let redacting: string;
const open: Connected[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-hostile-'));
  const redactor = path.join(guestBuildDir('c'), 'redact.wasm');
  await ensureGuestsBuilt('c', [redactor]);
  redacting = path.join(scratch, 'redact.json');
  await writeFile(redacting, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'redact', event: 'post_tool_use', component: redactor }] }));
}, 120_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.close().catch(() => undefined)));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function hostile(flags: string[] = [], options: Parameters<typeof connect>[2] = {}): Promise<Connected> {
  const c = await connect(redacting, HOSTILE, { ...options, flags: [...flags, ...(options.flags ?? [])] });
  open.push(c);
  return c;
}

/** What the hostile server received (its `received` tool). */
async function atServer(c: Connected): Promise<string> {
  const result = (await c.client.callTool({ name: 'received', arguments: {} })) as CallToolResult;
  return (result.content[0] as { text: string }).text;
}

describe('a hostile server cannot get a result past the post chain', () => {
  it('a secret only in content (structuredContent benign) is redacted: the redactor sees every field, the model still reads text', async () => {
    const c = await hostile();
    const result = await c.client.callTool({ name: 'split', arguments: { secret: SECRET } });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result).toEqual({ content: [{ type: 'text', text: 'the key is [REDACTED]' }], structuredContent: { status: 'nothing to see' }, isError: false });
  });

  it('a task\'s result (tasks/result) is redacted like the call that started it', async () => {
    const c = await hostile();
    const created = await c.client.request({ method: 'tools/call', params: { name: 'task-secret', arguments: { secret: SECRET }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    const result = await c.client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'task says [REDACTED]' }]);
  });

  it('a server that answers twice, or answers ids it never got: the client gets one answer per call, the rest is dropped', async () => {
    const c = await hostile();
    expect(await c.client.callTool({ name: 'twice', arguments: { text: 'one' } })).toEqual({ content: [{ type: 'text', text: 'one' }] });
    expect(await c.client.callTool({ name: 'stray', arguments: { text: 'two' } })).toEqual({ content: [{ type: 'text', text: 'two' }] });
    expect(await c.client.callTool({ name: 'slow', arguments: { text: 'three' } })).toEqual({ content: [{ type: 'text', text: 'three' }] });
    expect(c.clientErrors).toEqual([]); // the SDK client never saw an answer it did not ask for
    expect(await eventually(() => c.gateway.stderr.includes('which nothing is waiting for (dropped, never relayed)'))).toBe(true);
  });

  it('a server that answers under the id with another JSON type (7 → "7") never settles the call: it times out with -32001', async () => {
    const c = await hostile(['--upstream-timeout', '500']);
    const error = await c.client.callTool({ name: 'retyped', arguments: { text: 'x' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32001);
    expect((error as McpError).message).toMatch(/did not answer within 500 ms/);
  });

  it('an answer over --max-message-bytes is not read: the call gets -32603 at once, and the next call works', async () => {
    const c = await hostile(['--max-message-bytes', '100000']);
    const error = await c.client.callTool({ name: 'oversized', arguments: { bytes: 300_000 } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).toMatch(/over the gateway's --max-message-bytes/);
    expect(await c.client.callTool({ name: 'slow', arguments: { text: 'after' } })).toEqual({ content: [{ type: 'text', text: 'after' }] });
  });

  it('a server request (sampling) reaches the SDK client and its answer goes back', async () => {
    const c = await hostile([], {
      client: { capabilities: { sampling: {} } },
      setup: (client) => client.setRequestHandler(CreateMessageRequestSchema, () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'sampled' } })),
    });
    const result = (await c.client.callTool({ name: 'ask', arguments: {} })) as CallToolResult;
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ result: { content: { text: 'sampled' } } });
  });
});

describe('a client cannot get a call past the pre chain', () => {
  it('a tools/call sent as a notification never reaches the server (dropped, logged); the same call as a request is hooked', async () => {
    const deny = path.join(scratch, 'deny.json');
    await writeFile(deny, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'no-slow', event: 'pre_tool_use', tools: ['slow'], command: `cat >/dev/null; echo '{"decision":"deny","reason":"slow is off"}'` }] }));
    const c = await connect(deny, HOSTILE);
    open.push(c);
    await c.gateway.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'slow', arguments: { text: 'sneaked' } } });
    expect(await c.client.callTool({ name: 'slow', arguments: { text: 'asked' } })).toEqual({ content: [{ type: 'text', text: 'slow is off' }], isError: true });
    const received = await atServer(c);
    expect(received).not.toContain('sneaked');
    expect(received).not.toContain('asked');
    expect(c.gateway.stderr).toContain('"tools/call" is a request, sent as a notification (without an id)');
  });
});
