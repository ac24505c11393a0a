/**
 * The MCP gateway over Streamable HTTP, as a user runs it — `node dist/cli/main.js mcp --listen …` —
 * with the official SDK's HTTP client transport on the client side, and servers of both eras over
 * both transports: `@modelcontextprotocol/server-everything` (2025-11-25) and the 2026-07-28 fixture
 * (test/fixtures/mcp/modern-server.mjs). Every process started here is stopped by `stopAll()`, by pid.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResultSchema, type Notification, type Request, type Result } from '@modelcontextprotocol/sdk/types.js';
import { mirroredHeaders } from '../../host/integrations/mcp/mirror-headers.js';
import { ROOT } from './guests.js';
import { CLI, eventually } from './mcp.js';

export const MODERN_SERVER = [process.execPath, join(ROOT, 'test/fixtures/mcp/modern-server.mjs')];
export const EVERYTHING_JS = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

type Child = ChildProcessByStdio<null, Readable, Readable>;
const children = new Set<Child>();

/** A process started for a test: its output so far, and a way to wait for a line. */
export interface Started {
  readonly child: Child;
  readonly pid: number;
  out(): string;
  err(): string;
  exited: Promise<number | null>;
}

/** Start a process with stdin closed; it is stopped (by pid) in `stopAll`. */
export function startProcess(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Started {
  const [file, ...args] = argv;
  const child = spawn(file as string, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void exited.then(() => children.delete(child));
  return { child, pid: child.pid as number, out: () => out, err: () => err, exited };
}

/** Stop every process started here (SIGTERM, then SIGKILL), each by its pid. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await closed;
      clearTimeout(timer);
    }),
  );
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(started: Started, pattern: RegExp, what: string, ms = 30_000): Promise<RegExpExecArray> {
  let match: RegExpExecArray | null = null;
  const found = await eventually(() => (match = pattern.exec(started.out() + started.err())) !== null, ms);
  if (!found || match === null) throw new Error(`${what} did not start: ${started.err()}${started.out()}`);
  return match;
}

/** `basis-hooks mcp --listen`: the gateway over HTTP; resolves with its URL once it listens. */
export async function httpGateway(config: string, upstream: { server: readonly string[] } | { url: string }, flags: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<Started & { url: string }> {
  const full = [process.execPath, CLI, 'mcp', '--config', config, ...(flags.includes('--listen') ? [] : ['--listen', '127.0.0.1:0']), ...flags];
  if ('url' in upstream) full.push('--upstream', upstream.url);
  else full.push('--', ...upstream.server);
  const started = startProcess(full, env);
  const match = await waitFor(started, /listening on (http:\/\/\S+)/, 'the HTTP gateway');
  return { ...started, url: match[1] as string };
}

/** `@modelcontextprotocol/server-everything streamableHttp` (2025-11-25 over HTTP). */
export async function everythingHttp(): Promise<Started & { url: string }> {
  const port = await freePort();
  const started = startProcess([process.execPath, EVERYTHING_JS, 'streamableHttp'], { ...process.env, PORT: String(port) });
  await waitFor(started, /listening on port/, 'server-everything');
  return { ...started, url: `http://127.0.0.1:${port}/mcp` };
}

/** The 2026-07-28 fixture over HTTP. */
export async function modernHttp(): Promise<Started & { url: string; received(): Promise<Array<{ headers: Record<string, string>; body: { method?: string; params?: Record<string, unknown> } }>> }> {
  const started = startProcess([...MODERN_SERVER, '--http', '0']);
  const match = await waitFor(started, /\{"port":(\d+)\}/, 'the 2026-07-28 fixture');
  const base = `http://127.0.0.1:${match[1]}`;
  return { ...started, url: `${base}/mcp`, received: async () => (await (await fetch(`${base}/__received`)).json()) as never };
}

/** The official SDK client over Streamable HTTP (2025-11-25: initialize, a session). */
export async function legacyHttpClient(url: string, options: { client?: ClientOptions; headers?: Record<string, string>; setup?: (client: Client) => void } = {}): Promise<Client> {
  const client = new Client({ name: 'basis-http-client', version: '1.0.0' }, options.client ?? { capabilities: {} });
  options.setup?.(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options.headers === undefined ? {} : { requestInit: { headers: options.headers } }));
  return client;
}

const MODERN = '2026-07-28';

/**
 * A 2026-07-28 client, built on the SDK's `Protocol` (ids, answers, progress, cancellation) and its
 * transports: no `initialize`; every request carries `_meta` with the version, the client's info and
 * capabilities; over HTTP every POST carries the mirrored `Mcp-*` headers (through the transport's
 * `fetch` hook, computed from the body it sends).
 */
export class ModernClient extends Protocol<Request, Notification, Result> {
  readonly name: string;
  readonly capabilities: Record<string, unknown>;

  constructor(name = 'modern-client', capabilities: Record<string, unknown> = {}) {
    super();
    this.name = name;
    this.capabilities = capabilities;
  }

  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}

  /** Send `method` with `params` and this era's `_meta`; resolves with the result as sent (loose). */
  call(method: string, params: Record<string, unknown> = {}, options: { signal?: AbortSignal; timeout?: number; meta?: Record<string, unknown> } = {}): Promise<Record<string, unknown>> {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: this.name, version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': this.capabilities,
      ...options.meta,
    };
    return this.request({ method, params: { ...params, _meta } } as Request, ResultSchema, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      timeout: options.timeout ?? 60_000,
    }) as Promise<Record<string, unknown>>;
  }

  /** Over Streamable HTTP. `headers`: extra headers (a bearer token); `tamper` rewrites the mirrored ones before sending. */
  static async http(url: string, options: { name?: string; capabilities?: Record<string, unknown>; headers?: Record<string, string>; tamper?: (headers: Record<string, string>) => void } = {}): Promise<ModernClient> {
    const client = new ModernClient(options.name, options.capabilities);
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: Record<string, unknown> }) : undefined;
        const headers = new Headers(init?.headers);
        for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
        if (body?.method !== undefined) {
          const mirrored = mirroredHeaders({ method: body.method, params: body.params }, body.params?.name === 'region' ? [{ path: ['region'], name: 'Region' }] : []);
          options.tamper?.(mirrored);
          for (const [name, value] of Object.entries(mirrored)) headers.set(name, value);
        }
        return fetch(input, { ...init, headers });
      },
    });
    transport.setProtocolVersion(MODERN);
    await client.connect(transport as Transport);
    return client;
  }

  /** Over stdio, to a process (the gateway). */
  static async stdio(argv: readonly string[], options: { name?: string; capabilities?: Record<string, unknown> } = {}): Promise<ModernClient> {
    const client = new ModernClient(options.name, options.capabilities);
    const [command, ...args] = argv;
    await client.connect(new StdioClientTransport({ command: command as string, args, env: getDefaultEnvironment(), stderr: 'pipe' }));
    return client;
  }
}
