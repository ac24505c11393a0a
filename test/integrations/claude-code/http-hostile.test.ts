import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport } from '../../../host/index.js';
import { ClaudeCodeBridge, serveClaudeCode } from '../../../host/integrations/claude-code/index.js';
import type { HookRequest } from '../../../host/contract/request.js';

/*
 * The Claude Code HTTP bridge against a hostile local process (or a browser page, which can POST to
 * loopback): floods of large, slow and malformed requests must neither reach the chain nor keep an
 * event from Claude Code from being answered. The chain is a real runner with one in-process hook
 * that counts what reaches it and denies force-pushes.
 */

const TOKEN = 'a'.repeat(64);
let reached = 0;
function makeBridge(): ClaudeCodeBridge {
  const guard = (request: HookRequest) => {
    reached++;
    const command = JSON.stringify(request.input);
    return command.includes('--force') ? { decision: 'deny' as const, reason: 'no force-push' } : { decision: 'allow' as const };
  };
  return new ClaudeCodeBridge(new HookRunner([{ name: 'guard', event: 'pre_tool_use', transport: interceptorTransport(guard) }]));
}

const event = (command: string, id = 'toolu_1'): string =>
  JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

/** Claude Code's own request, as measured (axios, application/json, Host 127.0.0.1:PORT, no Origin). */
const CLAUDE_HEADERS = { 'content-type': 'application/json', 'user-agent': 'axios/1.15.2', accept: 'application/json, text/plain, */*' };

interface Answer {
  readonly status: number;
  readonly json: unknown;
}

function post(port: number, body: string, headers: Record<string, string> = {}, path = '/'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...CLAUDE_HEADERS, 'content-length': Buffer.byteLength(body), ...headers }, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text === '' ? null : (JSON.parse(text) as unknown) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw connection, for requests no well-behaved client would send. */
function raw(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

const isDeny = (a: Answer): boolean => a.status === 200 && (a.json as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision === 'deny';
const isBlock = (a: Answer): boolean => a.status === 200 && typeof (a.json as { reason?: unknown }).reason === 'string' && (a.json as { decision?: string }).decision === 'block';

describe('with a bearer token', () => {
  let server: Awaited<ReturnType<typeof serveClaudeCode>>;
  let port: number;
  beforeAll(async () => {
    server = await serveClaudeCode(makeBridge(), { port: 0, token: TOKEN, maxBodyBytes: 1024 * 1024 });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());
  const auth = { authorization: `Bearer ${TOKEN}` };

  it('answers Claude Code\'s own request (with the token) from the chain', async () => {
    expect(isDeny(await post(port, event('git push --force'), auth))).toBe(true);
    expect(await post(port, event('ls'), auth)).toEqual({ status: 200, json: {} });
  });

  it('property: only a POST with no Origin, a loopback Host, a JSON type and the right token reaches the chain', async () => {
    const origin = fc.constantFrom(undefined, 'http://evil.example', 'null', 'http://127.0.0.1:3000');
    const host = fc.constantFrom('127.0.0.1:PORT', 'localhost:PORT', '[::1]:PORT', '127.1.2.3', 'evil.example:PORT', 'attacker.127.0.0.1.nip.io', '');
    const type = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined);
    const token = fc.constantFrom(`Bearer ${TOKEN}`, `bearer ${TOKEN}`, undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer  ${TOKEN.slice(1)}`);
    const method = fc.constantFrom('POST', 'PUT', 'GET');
    await fc.assert(
      fc.asyncProperty(method, origin, host, type, token, async (m, o, h, t, a) => {
        const headers: Record<string, string> = { host: h.replace('PORT', String(port)) };
        if (o !== undefined) headers['origin'] = o;
        if (t !== undefined) headers['content-type'] = t;
        if (a !== undefined) headers['authorization'] = a;
        const before = reached;
        const answer = await rawRequest(port, m, headers, event('git push --force'));
        const good = m === 'POST' && o === undefined && !h.startsWith('evil') && !h.startsWith('attacker') && h !== '' && t !== undefined && /^application\/json/i.test(t) && a !== undefined && /^bearer /i.test(a) && a.slice(7) === TOKEN;
        expect(reached - before, JSON.stringify({ m, o, h, t, a })).toBe(good ? 1 : 0);
        if (good) expect(isDeny(answer)).toBe(true);
        // What Claude Code could have sent (a wrong token) blocks; what it never sends is a 4xx.
        else if (m === 'POST' && o === undefined && headers['host'] !== undefined && /^(127|localhost|\[::1\])/.test(h) && t !== undefined && /^application\/json/i.test(t)) expect(isBlock(answer)).toBe(true);
        else expect(answer.status === 200 ? isBlock(answer) : answer.status >= 400).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('a flood of hostile requests (large, slow, slowloris, no token) does not delay Claude Code\'s event: it is answered while they are still open', async () => {
    const hostile: Promise<unknown>[] = [];
    // Three "64 MiB" POSTs, chunked so no Content-Length gives them away, streaming as fast as they can.
    for (let i = 0; i < 3; i++) hostile.push(streamChunked(port, 64 * 1024 * 1024, { ...auth }));
    // Fifty slowloris connections: half a request line, then nothing.
    for (let i = 0; i < 50; i++) {
      const s = await raw(port);
      sockets.push(s);
      s.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    }
    // Twenty slow bodies without the token: refused at the headers, never read.
    for (let i = 0; i < 20; i++) {
      const s = await raw(port);
      sockets.push(s);
      s.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":`);
    }
    const before = reached;
    const answer = await post(port, event('git push --force origin main', 'toolu_real'), auth);
    expect(isDeny(answer)).toBe(true);
    expect(reached - before).toBe(1);
    // The slowloris sockets are still open: the answer did not wait for them.
    expect(sockets.filter((s) => !s.destroyed).length).toBeGreaterThan(0);
    const streamed = await Promise.all(hostile);
    for (const result of streamed) expect(result).toMatchObject({ answered: true, sent: expect.any(Number) as unknown });
    for (const result of streamed as Array<{ sent: number; body: unknown }>) {
      // Refused at the cap while streaming: far less than 64 MiB was taken, and the answer is a block.
      expect(result.body).toMatchObject({ decision: 'block' });
    }
  }, 60_000);

  it('a Content-Length over the cap is answered before the body is sent', async () => {
    const s = await raw(port);
    sockets.push(s);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      s.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('\r\n\r\n') && text.includes('}')) resolve(text);
      });
    });
    s.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain('"decision":"block"');
    expect(text).toContain('cap');
  });

  it('a body nested past the JSON limits is refused by the parse budget, and the server keeps answering', async () => {
    const deep = `{"session_id":"s","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const answer = await post(port, deep, auth);
    expect(isBlock(answer)).toBe(true);
    expect(isDeny(await post(port, event('git push --force'), auth))).toBe(true);
  });
});

describe('without a token, every slot taken by slow senders', () => {
  let server: Awaited<ReturnType<typeof serveClaudeCode>>;
  let port: number;
  beforeAll(async () => {
    server = await serveClaudeCode(makeBridge(), { port: 0, maxBodyBytes: 1024 * 1024, maxConcurrent: 2, maxQueued: 2, maxWaitMs: 400, bodyTimeoutMs: 1500 });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  it('an event beyond the queue is answered at once with a block (fail closed), never left to time out', async () => {
    for (let i = 0; i < 4; i++) {
      const s = await raw(port);
      sockets.push(s);
      s.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
    }
    // Let the server take them: two slots reading (stalled), two waiting.
    await waitFor(() => server.load().queued === 2, 5_000);
    const answer = await post(port, event('git push --force'));
    expect(isBlock(answer)).toBe(true);
    expect((answer.json as { reason: string }).reason).toContain('busy');
  });

  it('an event waiting for a slot is answered with a block when none comes in time; a stalled body is cut and answered as slow', async () => {
    const stalled = await raw(port);
    sockets.push(stalled);
    const got = new Promise<string>((resolve) => {
      let text = '';
      stalled.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('}')) resolve(text);
      });
    });
    await waitFor(() => server.load().active === 0, 10_000);
    for (let i = 0; i < 2; i++) {
      const s = i === 0 ? stalled : await raw(port);
      if (i > 0) sockets.push(s);
      s.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
    }
    await waitFor(() => server.load().active === 2, 5_000);
    const answer = await post(port, event('git push --force'));
    expect(isBlock(answer)).toBe(true);
    expect((answer.json as { reason: string }).reason).toMatch(/busy/);
    expect(await got).toMatch(/"decision":"block".*did not arrive within 1500 ms/);
  });
});

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

/** Send a request by hand (any header, any Host), and read its answer. */
function rawRequest(port: number, method: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      const lines = [`${method} / HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body];
      s.write(lines.join('\r\n'));
    });
    let text = '';
    s.on('data', (c: Buffer) => (text += c.toString()));
    s.on('error', reject);
    s.on('close', () => {
      const [head = '', rest = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0);
      resolve({ status, json: rest === '' ? null : (JSON.parse(rest) as unknown) });
    });
  });
}

/** Stream `total` bytes as a chunked JSON body as fast as the socket takes them; resolve with the answer and how much was sent. */
function streamChunked(port: number, total: number, headers: Record<string, string>): Promise<{ answered: boolean; sent: number; body: unknown }> {
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { ...CLAUDE_HEADERS, 'transfer-encoding': 'chunked', ...headers }, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        settled = true;
        req.destroy();
        resolve({ answered: true, sent, body: JSON.parse(text) as unknown });
      });
    });
    req.on('error', () => {
      if (!settled) resolve({ answered: false, sent, body: null });
    });
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    req.write('{"pad":"');
    const pump = (): void => {
      while (!settled && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!settled) req.end('"}');
    };
    pump();
  });
}
