/**
 * The MCP gateway over Streamable HTTP (issue 22's numbers), beside the same calls without it, in
 * the same run:
 *
 * - latency: the official SDK client calling server-everything's `echo` over HTTP directly, through
 *   a copy-only Node HTTP proxy (copy-proxy.mjs: the floor of any HTTP hop in Node), through
 *   `basis-hooks mcp --listen … --upstream …` with an empty chain, and with a metered C component
 *   guard on every tool — interleaved batches, one session each;
 * - throughput: 32 SDK clients (32 sessions) calling `echo` back to back for a fixed time, directly
 *   and through one gateway replica (empty chain), in alternating windows.
 *
 * Run by scripts/bench/mcp.ts (and so by `npm run bench`). Never asserted anywhere.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT } from './guests.js';
import { round, summarize, type Stats } from './stats.js';
import { freePort, startReady } from '../lib/processes.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const EVERYTHING_JS = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** One HTTP connection's per-call latency. */
export interface McpHttpCase {
  readonly id: 'http-direct' | 'http-copy-proxy' | 'http-gateway-empty' | 'http-gateway-guard';
  readonly label: string;
  readonly stats: Stats;
  readonly added_us?: number;
  /**
   * CPU time (user + system) the hop's process spent per call during the latency phase (Linux:
   * /proc), absent for the direct connection. Unlike latency it does not grow with the machine's
   * load: the gateway's own work beside the copy-only proxy's.
   */
  readonly hop_cpu_us?: number;
}

/** Calls per second with many clients at once. */
export interface McpThroughput {
  readonly clients: number;
  readonly window_ms: number;
  readonly windows: number;
  readonly direct_per_s: number;
  readonly gateway_per_s: number;
  /** gateway ÷ direct. */
  readonly ratio: number;
}

export interface McpHttpBench {
  readonly cases: readonly McpHttpCase[];
  readonly throughput: McpThroughput;
}



/** CPU time a process has used so far, in µs (user + system; Linux /proc), or `undefined` elsewhere. */
function cpuUs(child: ChildProcess | undefined): number | undefined {
  if (child?.pid === undefined) return undefined;
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz on Linux).
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'basis-bench', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

async function echo(c: Client): Promise<void> {
  const result = await c.callTool({ name: 'echo', arguments: { message: 'git push origin feature' } });
  if (result.isError === true) throw new Error(`echo failed: ${JSON.stringify(result)}`);
}

/** Calls completed by `clients` calling back to back for `ms`. */
async function window(clients: readonly Client[], ms: number): Promise<number> {
  const end = performance.now() + ms;
  let calls = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        await echo(c);
        calls++;
      }
    }),
  );
  return calls;
}

/**
 * Measure. `config` files: an empty chain and a metered C guard (written by the caller, which has
 * them for the stdio rows too).
 */
export async function benchMcpHttp(options: { quick: boolean; empty: string; guarded: string; log: (line: string) => void }): Promise<McpHttpBench> {
  const { quick, log } = options;
  const rounds = quick ? 2 : 20;
  const batch = quick ? 10 : 50;
  const children: ChildProcess[] = [];
  const open: Client[] = [];
  try {
    log('mcp-http: starting server-everything over HTTP and two gateways in front of it');
    const port = await freePort();
    await startReady(children, [process.execPath, EVERYTHING_JS, 'streamableHttp'], /(listening on port)/, { env: { ...process.env, PORT: String(port) } });
    const direct = `http://127.0.0.1:${port}/mcp`;
    const gateway = (config: string): Promise<string> =>
      startReady(children, [process.execPath, CLI, 'mcp', '--config', config, '--listen', '127.0.0.1:0', '--max-sessions', '100', '--upstream', direct], /listening on (http:\/\/\S+)/);
    const emptyUrl = await gateway(options.empty);
    const emptyProcess = children.at(-1);
    const guardUrl = await gateway(options.guarded);
    const guardProcess = children.at(-1);
    const copyUrl = await startReady(children, [process.execPath, join(ROOT, 'scripts/bench/copy-proxy.mjs'), direct, '0'], /listening on (http:\/\/\S+)/);
    const copyProcess = children.at(-1);

    const connections = [
      { id: 'http-direct' as const, label: 'direct over HTTP (SDK client → server)', client: await client(direct), samples: [] as number[], hop: undefined },
      { id: 'http-copy-proxy' as const, label: 'through a copy-only Node HTTP proxy (the floor of a hop)', client: await client(copyUrl), samples: [] as number[], hop: copyProcess },
      { id: 'http-gateway-empty' as const, label: 'through basis-hooks mcp over HTTP, empty chain', client: await client(emptyUrl), samples: [] as number[], hop: emptyProcess },
      { id: 'http-gateway-guard' as const, label: 'through basis-hooks mcp over HTTP, metered C guard', client: await client(guardUrl), samples: [] as number[], hop: guardProcess },
    ];
    open.push(...connections.map((c) => c.client));
    for (const c of connections) for (let i = 0; i < batch; i++) await echo(c.client);
    log(`mcp-http: ${rounds} rounds × ${batch} calls per connection, interleaved`);
    const cpuBefore = connections.map((c) => cpuUs(c.hop));
    for (let r = 0; r < rounds; r++) {
      for (const c of connections) {
        for (let i = 0; i < batch; i++) {
          const t = performance.now();
          await echo(c.client);
          c.samples.push(performance.now() - t);
        }
      }
    }
    const cpuAfter = connections.map((c) => cpuUs(c.hop));
    const base = summarize(connections[0]?.samples ?? []);
    const cases = connections.map((c, i): McpHttpCase => {
      const stats = summarize(c.samples);
      if (c.id === 'http-direct') return { id: c.id, label: c.label, stats };
      const [before, after] = [cpuBefore[i], cpuAfter[i]];
      const cpu = before === undefined || after === undefined ? {} : { hop_cpu_us: Math.round((after - before) / c.samples.length) };
      return { id: c.id, label: c.label, stats, added_us: round(stats.median_us - base.median_us), ...cpu };
    });

    const clients = 32;
    const windowMs = quick ? 500 : 3000;
    const windows = quick ? 1 : 3;
    log(`mcp-http: throughput, ${clients} clients, ${windows} × ${windowMs} ms windows each, alternating`);
    const directClients = await Promise.all(Array.from({ length: clients }, () => client(direct)));
    const gatewayClients = await Promise.all(Array.from({ length: clients }, () => client(emptyUrl)));
    open.push(...directClients, ...gatewayClients);
    await window(directClients, 300);
    await window(gatewayClients, 300);
    let directCalls = 0;
    let gatewayCalls = 0;
    for (let w = 0; w < windows; w++) {
      directCalls += await window(directClients, windowMs);
      gatewayCalls += await window(gatewayClients, windowMs);
    }
    const seconds = (windows * windowMs) / 1000;
    const throughput: McpThroughput = {
      clients,
      window_ms: windowMs,
      windows,
      direct_per_s: Math.round(directCalls / seconds),
      gateway_per_s: Math.round(gatewayCalls / seconds),
      ratio: Math.round((gatewayCalls / directCalls) * 100) / 100,
    };
    return { cases, throughput };
  } finally {
    await Promise.allSettled(open.map((c) => c.close()));
    for (const child of children) child.kill('SIGTERM');
  }
}

/**
 * The gateway's added latency as a multiple of the copy-only proxy's, measured in the same run: on a
 * loaded machine every hop's cost grows with the load, and this ratio is the figure that travels.
 */
/** A difference with its sign (+12 / −12). */
function signed(us: number): string {
  return `${us < 0 ? '−' : '+'}${Math.abs(us).toLocaleString('en-US')}`;
}

function overProxy(cases: readonly McpHttpCase[]): string[] {
  const proxy = cases.find((c) => c.id === 'http-copy-proxy')?.added_us;
  const gateway = cases.find((c) => c.id === 'http-gateway-empty')?.added_us;
  if (proxy === undefined || gateway === undefined || proxy <= 0) return [];
  const lines = [`The gateway (empty chain) adds ${(gateway / proxy).toFixed(2)}× what the copy-only proxy adds (${signed(gateway)} vs ${signed(proxy)} µs).`];
  const proxyCpu = cases.find((c) => c.id === 'http-copy-proxy')?.hop_cpu_us;
  const gatewayCpu = cases.find((c) => c.id === 'http-gateway-empty')?.hop_cpu_us;
  if (proxyCpu !== undefined && gatewayCpu !== undefined && proxyCpu > 0) lines.push(`Its process uses ${(gatewayCpu / proxyCpu).toFixed(2)}× the proxy's CPU per call (${gatewayCpu.toLocaleString('en-US')} vs ${proxyCpu.toLocaleString('en-US')} µs).`);
  return [...lines, ''];
}

/** The report as markdown. */
export function mcpHttpReport(result: McpHttpBench, rounds: number, batch: number): string {
  const t = result.throughput;
  return [
    `MCP gateway over Streamable HTTP: µs per tools/call (server-everything "echo" over HTTP, SDK client, ${rounds} × ${batch} calls per connection, interleaved)`,
    '',
    '| connection | median µs | p99 µs | added vs direct (median) | hop CPU µs per call |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...result.cases.map(
      (c) =>
        `| ${c.label} | ${c.stats.median_us.toLocaleString('en-US')} | ${c.stats.p99_us.toLocaleString('en-US')} | ${c.added_us === undefined ? '—' : signed(c.added_us)} | ${c.hop_cpu_us === undefined ? '—' : c.hop_cpu_us.toLocaleString('en-US')} |`,
    ),
    '',
    ...overProxy(result.cases),
    `Throughput, ${t.clients} HTTP clients (one session each) calling back to back, ${t.windows} × ${t.window_ms} ms windows alternating:`,
    '',
    '| | calls/s |',
    '| --- | ---: |',
    `| direct | ${t.direct_per_s.toLocaleString('en-US')} |`,
    `| through one gateway replica, empty chain | ${t.gateway_per_s.toLocaleString('en-US')} (${Math.round(t.ratio * 100)} %) |`,
    '',
  ].join('\n');
}
