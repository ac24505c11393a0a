import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/guests.js';
import { EVERYTHING } from '../../helpers/mcp.js';
import { everythingHttp, httpGateway, legacyHttpClient, ModernClient, stopAll } from '../../helpers/mcp-http.js';

/*
 * Bad input over HTTP gets a clear HTTP or JSON-RPC error and loses nothing: oversized and malformed
 * messages, wrong content types, foreign origins and hosts, a flood, a client that disconnects
 * mid-call, a slow server, a server that lies.
 */

const HOSTILE = [process.execPath, path.join(ROOT, 'test/fixtures/mcp/hostile-server.mjs')];
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let scratch: string;
let empty: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-bad-'));
  empty = path.join(scratch, 'empty.json');
  await writeFile(empty, JSON.stringify({ hook_schema: 1, hooks: [] }));
});
afterEach(async () => {
  await stopAll();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A 2026-07-28 tools/call with the headers that go with it. */
function modernCall(id: number | string, name: string, args: Record<string, unknown>): { body: string; headers: Record<string, string> } {
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
    headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
  };
}

async function send(url: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: Record<string, unknown> | string }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: Record<string, unknown> | string = text;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, body };
}

describe('what a request must be', () => {
  it('each malformed request gets its own clear status and JSON-RPC error; the gateway serves the next one', async () => {
    const gateway = await httpGateway(empty, { server: EVERYTHING }, ['--max-message-bytes', '100000']);
    const post = (body: string, headers: Record<string, string> = JSON_HEADERS): Promise<Awaited<ReturnType<typeof send>>> => send(gateway.url, { method: 'POST', headers, body });
    expect(await post('{not json')).toMatchObject({ status: 400, body: { id: null, error: { code: -32700 } } });
    expect(await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]))).toMatchObject({ status: 400, body: { error: { code: -32600, message: expect.stringContaining('batch') } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'ping' }))).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    expect(await post('x'.repeat(200_000))).toMatchObject({ status: 413, body: { error: { message: expect.stringContaining('--max-message-bytes') } } });
    expect(await post('{}', { ...JSON_HEADERS, 'content-type': 'text/plain' })).toMatchObject({ status: 415 });
    expect(await post('{}', { 'content-type': 'application/json', accept: 'application/json' })).toMatchObject({ status: 406 });
    expect(await post('{}', { ...JSON_HEADERS, origin: 'https://evil.example' })).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining('Origin') } } });
    // A page of this machine (a loopback origin) is let in when the gateway listens on loopback.
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { ...JSON_HEADERS, origin: 'http://localhost:3000' })).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('Mcp-Session-Id') } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('Mcp-Session-Id header is required') } } });
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { ...JSON_HEADERS, 'mcp-session-id': 'no-such-session' })).toMatchObject({ status: 404 });
    expect(await send(gateway.url, { method: 'PUT', body: '{}' })).toMatchObject({ status: 405 });
    expect(await send(gateway.url, { method: 'GET', headers: { accept: 'text/event-stream' } })).toMatchObject({ status: 405 });
    expect(await send(new URL('/elsewhere', gateway.url).href, { method: 'POST', headers: JSON_HEADERS, body: '{}' })).toMatchObject({ status: 404 });
    // A body over the cap without Content-Length is refused while it streams, not buffered.
    const streamed = await new Promise<number>((resolve, reject) => {
      const request = http.request(gateway.url, { method: 'POST', headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once('error', reject);
      for (let i = 0; i < 30; i++) request.write('x'.repeat(10_000));
      request.end();
    });
    expect(streamed).toBe(413);
    // And the gateway still serves.
    const client = await legacyHttpClient(gateway.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('a Host that is not this machine is refused when the gateway listens on loopback (DNS rebinding)', async () => {
    const gateway = await httpGateway(empty, { server: EVERYTHING });
    const { port } = new URL(gateway.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...JSON_HEADERS, host: `attacker.example:${port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });
});

describe('what a server\'s stream may carry', () => {
  it('an SSE priming event (an event id and empty data, 2025-11-25) is no message: nothing is dropped or logged for it', async () => {
    // server-everything's SDK transport primes every response stream this way.
    const upstream = await everythingHttp();
    const gateway = await httpGateway(empty, { url: upstream.url });
    const client = await legacyHttpClient(gateway.url);
    for (let i = 0; i < 3; i++) expect(await client.callTool({ name: 'echo', arguments: { message: `m${i}` } })).toMatchObject({ content: [{ text: `Echo: m${i}` }] });
    await client.close();
    expect(gateway.err()).not.toMatch(/not JSON|dropped/);
  });
});

describe('load, disconnects, slow and lying servers', () => {
  it('a flood beyond --max-in-flight gets 503 with Retry-After; the calls in flight finish, and later ones are served', async () => {
    const gateway = await httpGateway(empty, { server: HOSTILE }, ['--max-in-flight', '2']);
    const slow = (id: number): Promise<Awaited<ReturnType<typeof send>>> => {
      const call = modernCall(id, 'slow', { ms: 800, text: `slow-${id}` });
      return send(gateway.url, { method: 'POST', headers: call.headers, body: call.body });
    };
    const first = [slow(1), slow(2)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await slow(3);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ id: 3, error: { message: expect.stringContaining('retry shortly') } });
    for (const done of await Promise.all(first)) expect(done).toMatchObject({ status: 200, body: { result: { content: [{ text: expect.stringMatching(/^slow-/) }] } } });
    expect(await slow(4)).toMatchObject({ status: 200, body: { result: { content: [{ text: 'slow-4' }] } } });
  });

  it('a 2026-07-28 client that disconnects mid-call cancels it: the server is told (notifications/cancelled)', async () => {
    const gateway = await httpGateway(empty, { server: HOSTILE });
    const call = modernCall(7, 'slow', { ms: 5000, text: 'never-answered' });
    const abort = new AbortController();
    const pending = fetch(gateway.url, { method: 'POST', headers: call.headers, body: call.body, signal: abort.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 400));
    abort.abort();
    await pending;
    const client = await ModernClient.http(gateway.url);
    let received = '';
    for (let tries = 0; tries < 50 && !received.includes('notifications/cancelled'); tries++) {
      received = ((await client.call('tools/call', { name: 'received', arguments: {} })) as { content: [{ text: string }] }).content[0].text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received).toContain('notifications/cancelled');
    const messages = JSON.parse(received) as Array<{ method?: string; id?: unknown; params?: { requestId?: unknown; arguments?: { text?: string } } }>;
    const slowCall = messages.find((m) => m.params?.arguments?.text === 'never-answered');
    expect(messages.find((m) => m.method === 'notifications/cancelled')?.params?.requestId).toBe(slowCall?.id);
    await client.close();
  });

  it('a server slower than --upstream-timeout: the call gets -32001 naming the timeout', async () => {
    const gateway = await httpGateway(empty, { server: HOSTILE }, ['--upstream-timeout', '300']);
    const call = modernCall(1, 'slow', { ms: 3000, text: 'late' });
    expect(await send(gateway.url, { method: 'POST', headers: call.headers, body: call.body })).toMatchObject({ status: 200, body: { id: 1, error: { code: -32001, message: expect.stringContaining('did not answer within 300 ms') } } });
  });

  it('kept-alive connections the server resets as calls arrive (its idle-timeout race): each call is sent again once, on a fresh connection, not on another stale one', async () => {
    const served = new WeakSet<object>();
    const calls: string[] = [];
    const server = http.createServer((request, response) => {
      if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
      const reused = served.has(request.socket);
      served.add(request.socket);
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string; arguments?: { text?: string } } };
        const json = (value: unknown): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (message.id === undefined) return void response.writeHead(202).end();
        if (message.method === 'server/discover') return void response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request' } }));
        if (message.method === 'initialize') return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'resetting', version: '1' } } });
        if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } });
        const text = message.params?.arguments?.text ?? '';
        const answer = (): void => json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `echo: ${text}` }] } });
        // Warm-up calls are answered late, so that they hold two connections at once and leave both idle.
        if (text.startsWith('warm')) return void setTimeout(answer, 100);
        calls.push(`${reused ? 'reused' : 'fresh'}:${text}`);
        // Every other call that arrives on a kept-alive connection finds it reset, as when the server's
        // idle timeout closed all of them at once.
        if (reused) return void request.socket.resetAndDestroy();
        answer();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const gateway = await httpGateway(empty, { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` });
    const client = await legacyHttpClient(gateway.url);
    await Promise.all(['warm-a', 'warm-b'].map((text) => client.callTool({ name: 'echo', arguments: { text } })));
    // At least two idle kept-alive connections now: a retry that went to the pool again would meet the
    // second stale one and fail.
    expect(await client.callTool({ name: 'echo', arguments: { text: 'one' } })).toMatchObject({ content: [{ text: 'echo: one' }] });
    expect(await client.callTool({ name: 'echo', arguments: { text: 'two' } })).toMatchObject({ content: [{ text: 'echo: two' }] });
    expect(calls.filter((c) => c.endsWith(':one'))).toEqual(['reused:one', 'fresh:one']);
    expect(calls.filter((c) => c.endsWith(':two'))).toEqual(['reused:two', 'fresh:two']);
    await client.close();
  });

  it('an HTTP server that lies (answers another id, breaks off, errors without a body, sends too much): each call gets a clear error, the next one works', async () => {
    // A 2025-11-25 server written by hand to misbehave one way per tool.
    const liar = http.createServer((request, response) => {
      // The gateway opens a GET stream and ends the session with DELETE: this server offers neither.
      if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
        const json = (value: unknown): void => void response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'liar-session' }).end(JSON.stringify(value));
        if (message.id === undefined) return void response.writeHead(202).end();
        if (message.method === 'server/discover') return void response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }));
        if (message.method === 'initialize') return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'liar', version: '1' } } });
        if (message.method === 'tools/list') return json({ jsonrpc: '2.0', id: message.id, result: { tools: ['other-id', 'break-off', 'bare-500', 'huge', 'honest'].map((name) => ({ name, inputSchema: { type: 'object' } })) } });
        switch (message.params?.name) {
          case 'other-id':
            response.writeHead(200, { 'content-type': 'text/event-stream' });
            response.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: (message.id ?? 0) + 1000, result: { content: [{ type: 'text', text: 'stolen' }] } })}\n\n`);
            return;
          case 'break-off':
            response.writeHead(200, { 'content-type': 'text/event-stream' });
            response.write(': hello\n\n');
            setTimeout(() => response.destroy(), 100);
            return;
          case 'bare-500':
            return void response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>');
          case 'huge':
            return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(300_000) }] } });
          default:
            return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'honest answer' }] } });
        }
      });
    });
    servers.push(liar);
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(liar.address() as { port: number }).port}/mcp`;
    const gateway = await httpGateway(empty, { url }, ['--max-message-bytes', '100000']);
    const client = await ModernClient.http(gateway.url);
    const outcome = (name: string): Promise<unknown> => client.call('tools/call', { name, arguments: {} }).then((r) => r, (e: unknown) => e);
    expect(await outcome('other-id')).toMatchObject({ code: -32000, message: expect.stringContaining('closed the answer\'s stream without answering') });
    expect(await outcome('break-off')).toMatchObject({ code: -32000, message: expect.stringMatching(/broke off|closed the answer's stream/) });
    expect(await outcome('bare-500')).toMatchObject({ code: -32603, message: expect.stringContaining('HTTP 500 and no JSON-RPC answer') });
    expect(await outcome('huge')).toMatchObject({ code: -32603, message: expect.stringContaining('--max-message-bytes') });
    expect(await outcome('honest')).toMatchObject({ content: [{ type: 'text', text: 'honest answer' }] });
    expect(JSON.stringify(await outcome('other-id'))).not.toContain('stolen');
    await client.close();
  });
});
