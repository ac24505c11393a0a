import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childrenOf, connect, connectDirect, EVERYTHING, EXITING_SERVER, eventually, groupMembers, type Connected } from '../../helpers/mcp.js';
import { ensureGuestsBuilt, ROOT, watGuest } from '../../helpers/guests.js';
import { tempDir } from '../../helpers/temp.js';

/*
 * The official SDK Client ↔ `basis-hooks mcp` (the built CLI) ↔ @modelcontextprotocol/server-everything:
 * everything that is not a tools/call passes through unchanged, both directions, ids intact.
 */

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.close().catch(() => undefined)));
});

async function track(connected: Promise<Connected>): Promise<Connected> {
  const c = await connected;
  open.push(c);
  return c;
}

// Not tempDir(): that one is removed after each test, and this config serves them all.
let scratch: string;
let emptyConfig: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-'));
  emptyConfig = path.join(scratch, 'hooks.json');
  await writeFile(emptyConfig, JSON.stringify({ hook_schema: 1, hooks: [] }));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A config whose pre hook (a shell command) runs for every tool. */
async function configWith(hooks: Record<string, unknown>[]): Promise<string> {
  const dir = await tempDir();
  const file = path.join(dir, 'hooks.json');
  await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }));
  return file;
}

const text = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

describe('mcp gateway ↔ server-everything: pass-through', () => {
  it('the handshake, tools, resources and prompts are what the server says, unchanged', async () => {
    const direct = await track(connectDirect(EVERYTHING));
    const via = await track(connect(emptyConfig, EVERYTHING));
    expect(via.client.getServerVersion()).toEqual(direct.client.getServerVersion());
    expect(via.client.getServerCapabilities()).toEqual(direct.client.getServerCapabilities());
    expect(via.client.getInstructions()).toEqual(direct.client.getInstructions());
    expect(await via.client.listTools()).toEqual(await direct.client.listTools());
    expect(await via.client.listResources()).toEqual(await direct.client.listResources());
    expect(await via.client.listResourceTemplates()).toEqual(await direct.client.listResourceTemplates());
    const uri = 'demo://resource/dynamic/text/1';
    const read = await via.client.readResource({ uri });
    // The resource says when it was made, to the second: two reads may straddle a second boundary.
    const untimed = (value: unknown): string => JSON.stringify(value).replace(/created at [^"]*/g, 'created at <time>');
    expect(untimed(read)).toBe(untimed(await direct.client.readResource({ uri })));
    expect(read.contents[0]).toMatchObject({ uri });
    expect(await via.client.listPrompts()).toEqual(await direct.client.listPrompts());
    const prompt = await via.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon', state: 'Rhône' } });
    expect(prompt).toEqual(await direct.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon', state: 'Rhône' } }));
    expect(JSON.stringify(prompt)).toContain('Lyon');
    expect(await via.client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } })).toEqual(
      await direct.client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }),
    );
    expect(await via.client.ping()).toEqual({});
    expect(via.clientErrors).toEqual([]);
    expect(via.gateway.garbage).toEqual([]);
  });

  it('structured content and mixed content (images, resource links) come back as the server sent them', async () => {
    const direct = await track(connectDirect(EVERYTHING));
    const via = await track(connect(emptyConfig, EVERYTHING));
    for (const [name, args] of [
      ['get-structured-content', { location: 'Chicago' }],
      ['get-tiny-image', {}],
      ['get-resource-links', { count: 3 }],
      ['get-resource-reference', { resourceType: 'text', resourceId: 2 }],
      ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ['get-sum', { a: 2, b: 40 }],
    ] as const) {
      const through = await via.client.callTool({ name, arguments: args });
      expect(through, name).toEqual(await direct.client.callTool({ name, arguments: args }));
    }
    const structured = await via.client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
    expect(structured.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
  });

  it('progress notifications of a long operation reach the client while the call runs', async () => {
    const via = await track(connect(emptyConfig, EVERYTHING));
    const progress: number[] = [];
    const result = await via.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 4 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(text(result)).toMatch(/Long running operation completed/);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('server → client requests pass through: sampling, elicitation and roots (and the server\'s log notifications)', async () => {
    const logs: LoggingMessageNotification['params'][] = [];
    const via = await track(
      connect(emptyConfig, EVERYTHING, {
        client: { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
        setup: (client) => {
          client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
            model: 'test-model',
            role: 'assistant',
            content: { type: 'text', text: `sampled: ${JSON.stringify(request.params.messages[0]?.content)}` },
          }));
          client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada', check: true, email: 'ada@example.com', integer: 3, number: 1.5, enum: 'Blue' } }));
          client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work/basis-root', name: 'basis-root' }] }));
          client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
        },
      }),
    );
    const tools = (await via.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']));

    const sampled = await via.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello from the test', maxTokens: 5 } });
    expect(text(sampled)).toContain('sampled: ');
    expect(text(sampled)).toContain('hello from the test');
    expect(text(sampled)).toContain('test-model');

    const elicited = await via.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited)).toContain('Ada');

    const roots = await via.client.callTool({ name: 'get-roots-list', arguments: {} });
    expect(JSON.stringify(roots)).toContain('file:///work/basis-root');
    await via.client.sendRootsListChanged();
    expect(await eventually(() => logs.some((l) => String(l.data).includes('Roots updated')))).toBe(true);
    expect(via.clientErrors).toEqual([]);
  });

  it('a tool\'s own error is a result with isError, passed through as such', async () => {
    const direct = await track(connectDirect(EVERYTHING));
    const via = await track(connect(emptyConfig, EVERYTHING));
    const through = await via.client.callTool({ name: 'get-structured-content', arguments: { location: 'Atlantis' } });
    expect(through.isError).toBe(true);
    expect(through).toEqual(await direct.client.callTool({ name: 'get-structured-content', arguments: { location: 'Atlantis' } }));
  });
});

describe('mcp gateway ↔ server-everything: hooks and concurrency', () => {
  it('50 concurrent tools/calls each run their own chain at the same time, and each gets its own answer', async () => {
    const dir = await tempDir();
    const barrier = path.join(dir, 'barrier');
    await mkdir(barrier);
    // Each pre hook checks in, then waits until all 50 are running at once: a gateway that ran the
    // calls one after another would never fill the barrier, and every hook would time out (deny).
    const config = await configWith([
      {
        name: 'barrier',
        event: 'pre_tool_use',
        tools: ['get-sum'],
        timeout_ms: 60_000,
        // mktemp, not $$: each hook runs in its own PID namespace, where $$ is the same in every hook.
        command: `cat >/dev/null; mktemp "${barrier}/in.XXXXXX" >/dev/null; n=0; while [ "$(ls "${barrier}" | wc -l)" -lt 50 ]; do sleep 0.05; n=$((n+1)); [ $n -gt 1000 ] && exit 1; done; echo '{"decision":"allow"}'`,
      },
    ]);
    const via = await track(connect(config, EVERYTHING));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => via.client.callTool({ name: 'get-sum', arguments: { a: i, b: 1000 } })));
    results.forEach((result, i) => expect(text(result)).toBe(`The sum of ${i} and 1000 is ${i + 1000}.`));
    expect((await readdir(barrier)).length).toBe(50);
  });

  it('a hook sees the call as mapped: name, arguments, the JSON-RPC id, the client\'s name, the workspace', async () => {
    const dir = await tempDir();
    const config = await configWith([
      {
        name: 'show',
        event: 'pre_tool_use',
        command: [process.execPath, '-e', 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(JSON.stringify({ decision: "deny", reason: JSON.stringify(r) }))'],
      },
    ]);
    const via = await track(connect(config, EVERYTHING, { flags: ['--workspace', dir] }));
    const seen = JSON.parse(text(await via.client.callTool({ name: 'echo', arguments: { message: 'hi' } }))) as Record<string, unknown>;
    expect(seen).toEqual({ hook_schema: 1, event: 'pre_tool_use', workspace: dir, agent_id: 'basis-test-client', tool_call_id: expect.stringMatching(/^\d+$/), tool_name: 'echo', input: { message: 'hi' } });
    // --agent-id names the agent only when nothing else does (issue 22's order: token, _meta, initialize, flag).
    const named = await track(connect(config, EVERYTHING, { flags: ['--agent-id', 'agent-7'] }));
    const withId = JSON.parse(text(await named.client.callTool({ name: 'get-sum', arguments: {} }))) as Record<string, unknown>;
    expect(withId).toMatchObject({ agent_id: 'basis-test-client', workspace: ROOT, input: {} }); // default workspace: the gateway's cwd
  });

  it('what hooks write (a sandboxed guest\'s stdout and stderr, a subprocess\'s stderr) reaches neither the protocol stream nor stderr', async () => {
    await ensureGuestsBuilt('wat', [watGuest('stdio')]);
    const config = await configWith([
      { name: 'noisy-guest', event: 'pre_tool_use', component: watGuest('stdio') },
      { name: 'noisy-process', event: 'post_tool_use', command: `cat >/dev/null; echo 'stderr junk' >&2; echo '{"decision":"allow"}'` },
    ]);
    const via = await track(connect(config, EVERYTHING));
    expect(text(await via.client.callTool({ name: 'echo', arguments: { message: 'quiet' } }))).toBe('Echo: quiet');
    expect(via.gateway.garbage).toEqual([]);
    expect(via.clientErrors).toEqual([]);
    expect(via.gateway.stderr).not.toContain('hello from the guest');
    expect(via.gateway.stderr).not.toContain('stderr junk');
  });

  it('a denied call is answered with isError and the reason; the next call works', async () => {
    const config = await configWith([
      { name: 'no-echo', event: 'pre_tool_use', tools: ['echo'], command: `cat >/dev/null; echo '{"decision":"deny","reason":"echo is disabled here"}'` },
    ]);
    const via = await track(connect(config, EVERYTHING));
    const denied = await via.client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(denied).toEqual({ content: [{ type: 'text', text: 'echo is disabled here' }], isError: true });
    expect(text(await via.client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }))).toBe('The sum of 1 and 2 is 3.');
  });
});

describe('mcp gateway: the server or the client goes away', () => {
  it('server-everything killed mid-call: the pending call gets a JSON-RPC error, the gateway exits with its status, nothing is left', async () => {
    const via = await track(connect(emptyConfig, EVERYTHING));
    const [server] = childrenOf(via.gateway.pid);
    expect(server).toBeDefined();
    const progressed = new Promise<void>((resolve) => {
      void via.client
        .callTool({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }, undefined, { onprogress: () => resolve(), timeout: 60_000 })
        .catch(() => resolve());
    });
    const pending = via.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }, undefined, { timeout: 60_000 });
    await progressed; // the server is mid-call
    process.kill(server ?? 0, 'SIGKILL');
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32000);
    expect((error as McpError).message).toMatch(/MCP server was killed by SIGKILL before answering/);
    expect(await via.gateway.exited).toEqual({ code: 128 + 9, signal: null });
    expect(groupMembers(server ?? 0)).toEqual([]);
  });

  it('a server that exits with code 3 mid-call: the call gets an error, the gateway exits 3', async () => {
    const via = await track(connect(emptyConfig, EXITING_SERVER));
    const slow = via.client.callTool({ name: 'slow', arguments: { ms: 30_000 } }, undefined, { timeout: 60_000 });
    const exiting = via.client.callTool({ name: 'exit', arguments: { code: 3 } });
    for (const pending of [slow, exiting]) {
      const error = await pending.then(() => undefined, (e: unknown) => e);
      expect((error as McpError).code).toBe(-32000);
      expect((error as McpError).message).toMatch(/exited with code 3/);
    }
    expect(await via.gateway.exited).toEqual({ code: 3, signal: null });
    expect(via.gateway.stderr).toContain('exiting-server: exiting with 3'); // the server's stderr is the gateway's
  });

  it('when the client goes away the server is stopped and no process is left', async () => {
    const via = await track(connect(emptyConfig, EVERYTHING));
    const [server] = childrenOf(via.gateway.pid);
    expect(server).toBeDefined();
    expect(groupMembers(server ?? 0).length).toBeGreaterThan(0);
    await via.client.close();
    expect(await via.gateway.exited).toEqual({ code: 0, signal: null });
    expect(await eventually(() => groupMembers(server ?? 0).length === 0)).toBe(true);
  });

  it('SIGTERM to the gateway stops the server too', async () => {
    const via = await track(connect(emptyConfig, EVERYTHING));
    const [server] = childrenOf(via.gateway.pid);
    via.gateway.kill('SIGTERM');
    expect(await via.gateway.exited).toEqual({ code: 143, signal: null });
    expect(await eventually(() => groupMembers(server ?? 0).length === 0)).toBe(true);
  });
});
