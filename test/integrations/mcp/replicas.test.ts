import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureGuestsBuilt, guestBuildDir, ROOT } from '../../helpers/guests.js';
import { eventually } from '../../helpers/mcp.js';
import { everythingHttp, freePort, httpGateway, legacyHttpClient, ModernClient, modernHttp, startProcess, stopAll } from '../../helpers/mcp-http.js';

/*
 * Two gateway replicas behind a real HAProxy (Debian's package; .ci/run installs it), started and
 * stopped here: 2026-07-28 requests are spread over both replicas and every one is hooked (no state
 * a replica would need from the other: sealed task handles travel with the client); 2025-11-25
 * sessions stay on the replica that opened them, by HAProxy's stickiness on Mcp-Session-Id.
 */

const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((file) => existsSync(file));
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((file) => existsSync(file));
const RECORD = path.join(ROOT, 'test/fixtures/mcp/record-hook.mjs');
const SECRET = `ghp_${'R3p1i2c4a5'.repeat(3)}abcdef`;
let scratch: string;
let secretFile: string;
let redactor: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-replicas-'));
  secretFile = path.join(scratch, 'state.key');
  await writeFile(secretFile, randomBytes(32));
  redactor = path.join(guestBuildDir('c'), 'redact.wasm');
  await ensureGuestsBuilt('c', [redactor]);
}, 120_000);
afterEach(stopAll);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** One replica's config: a recording pre hook (its own file, so the test sees which replica hooked what) and the redactor. */
async function replicaConfig(name: string): Promise<{ config: string; log: string }> {
  const log = path.join(scratch, `${name}.jsonl`);
  const config = path.join(scratch, `${name}.json`);
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'record', event: 'pre_tool_use', command: [process.execPath, RECORD, log] },
        { name: 'redact', event: 'post_tool_use', component: redactor },
      ],
    }),
  );
  return { config, log };
}

function recorded(file: string): Array<{ tool_name: string; agent_id: string; input: Record<string, unknown> }> {
  return existsSync(file) ? (readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) as never) : [];
}

/** The HAProxy configuration docs/deployment.md shows, on these ports. */
export function haproxyConfig(port: number, replicas: readonly string[]): string {
  return `global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    # SSE streams and long tool calls: the gateway's own --upstream-timeout bounds a call.
    timeout client 10m
    timeout server 10m

frontend mcp
    bind 127.0.0.1:${port}
    default_backend gateways

backend gateways
    balance roundrobin
    # 2025-11-25 sessions: learn each session id from the response that creates it (initialize),
    # then send every request carrying it to the same replica. 2026-07-28 requests carry none and
    # are balanced freely.
    stick-table type string len 128 size 100k expire 30m
    stick on req.hdr(mcp-session-id)
    stick store-response res.hdr(mcp-session-id)
${replicas.map((address, i) => `    server replica${i + 1} ${address}`).join('\n')}
`;
}

/** The nginx configuration docs/deployment.md shows (2026-07-28 only: nginx cannot learn a session id from a response). */
export function nginxConfig(dir: string, port: number, replicas: readonly string[]): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    upstream gateways {
${replicas.map((address) => `        server ${address};`).join('\n')}
        keepalive 32;
    }
    server {
        listen 127.0.0.1:${port};
        location /mcp {
            proxy_pass http://gateways;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The client's Host: a gateway listening on loopback takes only loopback names.
            proxy_set_header Host $host;
            # SSE: pass each event on as it comes.
            proxy_buffering off;
            proxy_read_timeout 10m;
        }
    }
}
`;
}

async function startNginx(replicaUrls: readonly string[]): Promise<string> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(scratch, 'nginx-'));
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, nginxConfig(dir, port, replicaUrls.map((url) => new URL(url).host)));
  startProcess([NGINX as string, '-p', dir, '-c', file, '-g', 'daemon off;']);
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(url, { method: 'GET' }).then(() => true, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return url;
}

async function startHaproxy(replicaUrls: readonly string[]): Promise<string> {
  const port = await freePort();
  const file = path.join(scratch, `haproxy-${port}.cfg`);
  await writeFile(file, haproxyConfig(port, replicaUrls.map((url) => new URL(url).host)));
  execFileSync(HAPROXY as string, ['-c', '-f', file], { stdio: 'pipe' });
  const proxy = startProcess([HAPROXY as string, '-db', '-f', file]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const up = await eventually(() => proxy.child.exitCode === null && proxy.err().length >= 0, 1000);
  expect(up).toBe(true);
  // Ready once it accepts a connection.
  for (let i = 0; i < 50; i++) {
    const ok = await fetch(url, { method: 'GET' }).then(() => true, () => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return url;
}

describe.skipIf(HAPROXY === undefined)(`two replicas behind HAProxy${HAPROXY === undefined ? ' (skipped: haproxy is not installed; .ci/run installs it)' : ''}`, () => {
  it('2026-07-28: calls land on both replicas, every one hooked; a task started on one is polled on the other', async () => {
    const upstream = await modernHttp();
    const a = await replicaConfig('modern-a');
    const b = await replicaConfig('modern-b');
    const flags = ['--state-secret-file', secretFile];
    const replicaA = await httpGateway(a.config, { url: upstream.url }, flags);
    const replicaB = await httpGateway(b.config, { url: upstream.url }, flags);
    const lb = await startHaproxy([replicaA.url, replicaB.url]);
    const client = await ModernClient.http(lb, { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    // 20 calls at once: each spawns the recording hook on whichever replica takes it.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.call('tools/call', { name: 'echo', arguments: { text: `n${i}` } })));
    answers.forEach((answer, i) => expect(answer).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: `echo: n${i}` }] }));
    const [onA, onB] = [recorded(a.log), recorded(b.log)];
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    expect([...onA, ...onB].map((r) => r.input.text).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`).sort());
    // A task: created through one replica, polled through both (round robin), its result redacted
    // by whichever replica answers the poll that completes it.
    const created = await client.call('tools/call', { name: 'long', arguments: { secret: SECRET } });
    expect(created.taskId).toMatch(/^bh1\./);
    let polled: Record<string, unknown> = {};
    for (let i = 0; i < 10 && polled.status !== 'completed'; i++) polled = await client.call('tasks/get', { taskId: created.taskId });
    expect(polled).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done: [REDACTED]' }] } });
    await client.close();
  });

  it('2025-11-25: each session stays on the replica that opened it (sticky on Mcp-Session-Id); sessions spread over both', async () => {
    const upstream = await everythingHttp();
    const a = await replicaConfig('legacy-a');
    const b = await replicaConfig('legacy-b');
    const replicaA = await httpGateway(a.config, { url: upstream.url });
    const replicaB = await httpGateway(b.config, { url: upstream.url });
    const lb = await startHaproxy([replicaA.url, replicaB.url]);
    const clients = await Promise.all(['s1', 's2', 's3', 's4'].map((name) => legacyHttpClient(lb, { setup: () => undefined, client: { capabilities: {} } }).then((client) => ({ name, client }))));
    for (let round = 0; round < 3; round++) {
      for (const { name, client } of clients) {
        const result = await client.callTool({ name: 'echo', arguments: { message: `${name}-${round}` } });
        expect(result).toMatchObject({ content: [{ type: 'text', text: `Echo: ${name}-${round}` }] });
      }
    }
    const [onA, onB] = [recorded(a.log), recorded(b.log)];
    // Every call hooked once; each session's calls all on one replica; both replicas hold sessions.
    expect(onA.length + onB.length).toBe(12);
    for (const { name } of clients) {
      const where = [onA, onB].map((log) => log.filter((r) => String(r.input.message).startsWith(`${name}-`)).length);
      expect(where.sort()).toEqual([0, 3]);
    }
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    // What stickiness prevents: a session id taken to the other replica is unknown there.
    const sessionId = (clients[0]?.client.transport as { sessionId?: string }).sessionId as string;
    const answers = await Promise.all(
      [replicaA.url, replicaB.url].map((url) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) }).then((r) => r.status),
      ),
    );
    expect(answers.sort()).toEqual([200, 404]);
    await Promise.all(clients.map(({ client }) => client.close()));
  });
});

describe.skipIf(NGINX === undefined)(`two replicas behind nginx${NGINX === undefined ? ' (skipped: nginx is not installed; .ci/run installs it)' : ''}`, () => {
  it('2026-07-28: calls land on both replicas, every one hooked', async () => {
    const upstream = await modernHttp();
    const a = await replicaConfig('nginx-a');
    const b = await replicaConfig('nginx-b');
    const flags = ['--state-secret-file', secretFile];
    const replicaA = await httpGateway(a.config, { url: upstream.url }, flags);
    const replicaB = await httpGateway(b.config, { url: upstream.url }, flags);
    const lb = await startNginx([replicaA.url, replicaB.url]);
    const client = await ModernClient.http(lb);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.call('tools/call', { name: 'echo', arguments: { text: `m${i}` } })));
    answers.forEach((answer, i) => expect(answer).toMatchObject({ content: [{ type: 'text', text: `echo: m${i}` }] }));
    const [onA, onB] = [recorded(a.log), recorded(b.log)];
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    expect(onA.length + onB.length).toBe(12);
    await client.close();
  });
});
