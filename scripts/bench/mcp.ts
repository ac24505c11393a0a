/**
 * What the MCP gateway adds to a `tools/call`: the official SDK client calls server-everything's
 * `echo` directly, through `basis-hooks mcp` with an empty chain, and through it with a metered C
 * component guard on every tool — the three connections open at once and measured in interleaved
 * batches, so load drift on a shared machine hits them alike.
 *
 *   npx tsx scripts/bench/mcp.ts [--quick] [--json]      (after npm run build && npm run build-guests)
 *
 * Wired into `npm run bench` (its report follows the main one). Never asserted anywhere.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { guestById, ROOT } from './guests.js';
import { benchMcpHttp, mcpHttpReport, type McpHttpBench } from './mcp-http.js';
import { round, summarize, type Stats } from './stats.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const EVERYTHING = [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const CACHE_DIR = join(ROOT, '.cache', 'bench');

/** One connection's per-call latency. */
export interface McpCase {
  readonly id: 'direct' | 'gateway-empty' | 'gateway-guard';
  readonly label: string;
  readonly stats: Stats;
  /** Median minus the direct median, µs (absent for direct). */
  readonly added_us?: number;
}

export interface McpBench {
  readonly rounds: number;
  readonly batch: number;
  readonly cases: readonly McpCase[];
  /** The same over Streamable HTTP, and throughput with 32 clients (scripts/bench/mcp-http.ts). */
  readonly http: McpHttpBench;
}

interface Connection {
  readonly id: McpCase['id'];
  readonly label: string;
  readonly client: Client;
  readonly samples: number[];
}

async function open(id: McpCase['id'], label: string, command: string, args: string[]): Promise<Connection> {
  const transport = new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), BASIS_HOOKS_CACHE_DIR: CACHE_DIR }, stderr: 'ignore' });
  const client = new Client({ name: 'basis-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { id, label, client, samples: [] };
}

async function call(connection: Connection): Promise<void> {
  const result = await connection.client.callTool({ name: 'echo', arguments: { message: 'git push origin feature' } });
  if (result.isError === true) throw new Error(`${connection.label}: echo failed: ${JSON.stringify(result)}`);
}

/** Measure; `quick` takes a few samples only (smoke), not worth quoting. */
export async function benchMcp(quick = false, log: (line: string) => void = () => {}): Promise<McpBench> {
  const rounds = quick ? 2 : 20;
  const batch = quick ? 10 : 50;
  const dir = await mkdtemp(join(tmpdir(), 'basis-bench-mcp-'));
  await mkdir(CACHE_DIR, { recursive: true });
  const empty = join(dir, 'empty.json');
  const guarded = join(dir, 'guard.json');
  await writeFile(empty, JSON.stringify({ hook_schema: 1, hooks: [] }));
  await writeFile(guarded, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'guard', event: 'pre_tool_use', component: guestById('c').path, isolation: 'metered' }] }));
  const connections: Connection[] = [];
  try {
    log('mcp: starting server-everything directly and behind two gateways');
    connections.push(await open('direct', 'direct (SDK client → server)', process.execPath, EVERYTHING));
    connections.push(await open('gateway-empty', 'through basis-hooks mcp, empty chain', process.execPath, [CLI, 'mcp', '--config', empty, '--', process.execPath, ...EVERYTHING]));
    connections.push(await open('gateway-guard', 'through basis-hooks mcp, metered C guard', process.execPath, [CLI, 'mcp', '--config', guarded, '--', process.execPath, ...EVERYTHING]));
    for (const connection of connections) for (let i = 0; i < batch; i++) await call(connection);
    log(`mcp: ${rounds} rounds × ${batch} calls per connection, interleaved`);
    for (let r = 0; r < rounds; r++) {
      for (const connection of connections) {
        for (let i = 0; i < batch; i++) {
          const t = performance.now();
          await call(connection);
          connection.samples.push(performance.now() - t);
        }
      }
    }
  } finally {
    await Promise.allSettled(connections.map((c) => c.client.close()));
  }
  let http: McpHttpBench;
  try {
    http = await benchMcpHttp({ quick, empty, guarded, log });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const direct = summarize(connections[0]?.samples ?? []);
  const cases = connections.map((c): McpCase => {
    const stats = summarize(c.samples);
    return c.id === 'direct' ? { id: c.id, label: c.label, stats } : { id: c.id, label: c.label, stats, added_us: round(stats.median_us - direct.median_us) };
  });
  return { rounds, batch, cases, http };
}

/**
 * The Streamable HTTP rows alone (`tsx scripts/bench.ts --only mcp-http`, or this file with `--http`):
 * for checking a change on the gateway's HTTP path without the stdio rows.
 */
export async function benchMcpHttpAlone(quick = false, log: (line: string) => void = () => {}): Promise<McpHttpBench> {
  const dir = await mkdtemp(join(tmpdir(), 'basis-bench-mcp-'));
  try {
    const empty = join(dir, 'empty.json');
    const guarded = join(dir, 'guard.json');
    await writeFile(empty, JSON.stringify({ hook_schema: 1, hooks: [] }));
    await writeFile(guarded, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'guard', event: 'pre_tool_use', component: guestById('c').path, isolation: 'metered' }] }));
    return await benchMcpHttp({ quick, empty, guarded, log });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The report as a markdown table. */
export function mcpReport(result: McpBench): string {
  const rows = result.cases.map(
    (c) => `| ${c.label} | ${c.stats.median_us.toLocaleString('en-US')} | ${c.stats.p99_us.toLocaleString('en-US')} | ${c.added_us === undefined ? '—' : `+${c.added_us.toLocaleString('en-US')}`} |`,
  );
  return [
    `MCP gateway: µs per tools/call (server-everything "echo", SDK client, ${result.rounds} × ${result.batch} calls per connection, interleaved)`,
    '',
    '| connection | median µs | p99 µs | added vs direct (median) |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    mcpHttpReport(result.http, result.rounds, result.batch),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, http: { type: 'boolean', default: false } } });
  if (values.http) {
    const http = await benchMcpHttpAlone(values.quick, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(values.json ? `${JSON.stringify(http, null, 2)}\n` : mcpHttpReport(http, values.quick ? 2 : 20, values.quick ? 10 : 50));
    return;
  }
  const result = await benchMcp(values.quick, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : mcpReport(result));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
