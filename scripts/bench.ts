/**
 * `npm run bench` (after `npm run build && npm run build-guests`): per-call latency (median, p99),
 * calls/s, throughput under concurrent callers and cold start of every kind of hook, each beside the
 * baseline it is built on, measured in one run on this machine.
 *
 *   tsx scripts/bench.ts               the text report on stdout
 *   tsx scripts/bench.ts --json        the JSON result on stdout (the report goes to stderr)
 *   tsx scripts/bench.ts --out FILE    also write the JSON result to FILE (e.g. bench/results/latest.json)
 *   tsx scripts/bench.ts --markdown    also print the generated block of docs/performance.md
 *   tsx scripts/bench.ts --write-docs  rewrite the generated blocks: docs/performance.md's (between
 *                                      <!-- bench:start --> and <!-- bench:end -->) and the README's table
 *                                      of where a hook can live (<!-- bench:summary:start --> … :end -->)
 *   tsx scripts/bench.ts --quick       few samples (smoke test); the figures are not worth quoting
 *   tsx scripts/bench.ts --from FILE   render a results file again instead of measuring
 *   tsx scripts/bench.ts --no-clients  skip the MCP, Claude Code, OpenTelemetry and framework tables (printed beside the result, not in it)
 *   tsx scripts/bench.ts --cache-dir D the transpile cache of the component cases (default .cache/bench)
 *   tsx scripts/bench.ts --only chain  measure one section alone and print it with its comparisons (JSON;
 *                                      not a results file): for checking one change without the full run
 *   tsx scripts/bench.ts --only mcp-http  the same for the MCP gateway over Streamable HTTP (latency
 *                                      beside direct and a copy-only proxy, throughput with 32 clients)
 *
 * The documented performance figures are only ever written by --write-docs from one results file
 * (`npx tsx scripts/bench.ts --from bench/results/latest.json --write-docs`), so they cannot
 * disagree with each other.
 *
 * Everything goes through the public API (host/index.ts). Performance is never asserted: the machines
 * are shared and noisy; the report states the load average next to the figures.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import {
  benchBaselines,
  benchChain,
  benchComponents,
  benchConcurrency,
  benchInterceptor,
  benchPeer,
  benchSubprocess,
  progress,
  type RunState,
  type Plan,
} from './bench/cases.js';
import { benchClaudeCode, claudeCodeReport } from './bench/claude-code.js';
import { agentsReport, benchAgents } from './bench/agents.js';
import { coldLibrary, coldStart } from './bench/cold.js';
import { benchFrameworks, frameworksReport } from './bench/frameworks.js';
import { COLD_START_GUESTS, ROOT, guestById } from './bench/guests.js';
import { chainRatios, computeRatios } from './bench/ratios.js';
import { benchMcp, benchMcpHttpAlone, mcpReport } from './bench/mcp.js';
import { mcpHttpReport } from './bench/mcp-http.js';
import { benchPolicies } from './bench/policies.js';
import { benchTelemetry, telemetryReport } from './bench/telemetry.js';
import { PERFORMANCE_PAGE, SUMMARY_END, SUMMARY_PAGE, SUMMARY_START, markdownReport, replaceBlock, summaryTable, textReport } from './bench/report.js';
import { BenchResultSchema, BlockSchema, type BenchResult, type Block } from './bench/result.js';
import { round } from './bench/stats.js';

const FULL: Plan = {
  // Warm-up long enough for V8 to optimise the whole path (500 left the first in-thread case at 2× its later self).
  fast: { n: 2000, warmup: 5000 },
  worker: { n: 2000, warmup: 200 },
  spawn: { n: 30, warmup: 3 },
  throughputFast: 10_000,
  throughputWorker: 2000,
  callers: 8,
  throughputWarmupMs: 1500,
  coldRepeats: 2,
  coldGuests: COLD_START_GUESTS,
};

const QUICK: Plan = {
  fast: { n: 100, warmup: 20 },
  worker: { n: 50, warmup: 10 },
  spawn: { n: 3, warmup: 1 },
  throughputFast: 200,
  throughputWorker: 50,
  callers: 8,
  throughputWarmupMs: 300,
  coldRepeats: 1,
  coldGuests: ['wat'],
};

/** How bench processes start: tsx for the scripts, and the library from dist/ when it is fresh (bench/use-dist.mjs). */
const BENCH_IMPORTS = ['--import', 'tsx', '--import', join(ROOT, 'scripts/bench/use-dist.mjs')];

/** What this process measures: set by use-dist.mjs (absent: started without it, so the sources). */
function benchLibrary(): 'dist' | 'sources' {
  return process.env['BASIS_BENCH_LIBRARY'] === 'dist' ? 'dist' : 'sources';
}

/**
 * The transpile cache of the warm cases: gitignored, kept between runs so only the first run transpiles.
 * `--cache-dir` names another (the smoke test shares the suite's: entries are keyed by content).
 */
const DEFAULT_CACHE_DIR = join(ROOT, '.cache', 'bench');

/**
 * The building blocks (scripts/bench/micro/), in a fresh process: instances of a component made by
 * the other cases would change their one-instance figures.
 */
async function measureBlocks(quick: boolean, cacheDir: string): Promise<Block[]> {
  progress('building blocks (a fresh process: scripts/bench/micro/run.ts)');
  const { stdout } = await promisify(execFile)(process.execPath, [...BENCH_IMPORTS, join(ROOT, 'scripts/bench/micro/run.ts'), '--json', '--cache-dir', cacheDir, ...(quick ? ['--quick'] : [])], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return BlockSchema.array().parse(JSON.parse(stdout));
}

async function measureAll(quick: boolean, cacheDir: string): Promise<BenchResult> {
  const plan = quick ? QUICK : FULL;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const loadStart = loadavg();
  const metered: RunState = { supported: undefined, notes: [] };

  const blocks = await measureBlocks(quick, cacheDir);
  const baselines = await benchBaselines(plan);
  const interceptor = await benchInterceptor(plan);
  const peer = await benchPeer(plan, cacheDir, metered);
  const components = await benchComponents(plan, cacheDir, metered);
  const chain = await benchChain(plan, cacheDir, metered);
  const concurrency = await benchConcurrency(plan, cacheDir, metered);
  const subprocess = await benchSubprocess(plan);
  progress('policy hooks: Cedar (50 policies) beside its package, the decision cache, CEL (20 rules), load times');
  const policies = await benchPolicies(plan.fast, quick);

  const library = await coldLibrary();
  if (library === 'sources') metered.notes.push('cold start measured from the TypeScript sources (dist/ missing or not built from host/ as it is): the host is compiled by tsx and a worker entry bundled first, adding a few hundred ms');
  const cold: BenchResult['cold_start'] = [];
  for (const id of plan.coldGuests) {
    const guest = guestById(id);
    for (const isolation of metered.supported === true ? (['worker', 'metered'] as const) : (['worker'] as const)) {
      progress(`cold start: ${guest.label}, ${isolation} (${plan.coldRepeats}× 2 fresh processes)`);
      try {
        cold.push({ id, label: guest.label, isolation, ...(await coldStart(guest.path, isolation, plan.coldRepeats, library)) });
      } catch (error) {
        if (isolation === 'worker') throw error;
        metered.notes.push(`metered cold start of ${guest.label}: n/a — ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  const measured = {
    schema: 3 as const,
    quick,
    started_at: startedAt,
    availability: { metered: metered.supported === true, library: benchLibrary(), cold_start_library: library, notes: metered.notes },
    baselines,
    interceptor,
    peer,
    components,
    subprocess,
    chain,
    cold_start: cold,
    concurrency,
    blocks,
    policies,
  };
  const result: BenchResult = {
    ...measured,
    duration_s: round((performance.now() - started) / 1000),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      node: process.version,
      platform: `${platform()} ${process.arch}`,
      loadavg_start: loadStart.map(round),
      loadavg_end: loadavg().map(round),
    },
    ratios: computeRatios(measured),
  };
  // The same schema the smoke test holds the output to: a run that produces a malformed result fails here.
  return BenchResultSchema.parse(result);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      'write-docs': { type: 'boolean', default: false },
      out: { type: 'string' },
      from: { type: 'string' },
      'no-clients': { type: 'boolean', default: false },
      'cache-dir': { type: 'string' },
      only: { type: 'string' },
    },
  });
  if (values.only !== undefined) {
    if (values.only === 'mcp-http') {
      const loadStart = loadavg().map(round);
      const http = await benchMcpHttpAlone(values.quick === true, progress);
      process.stdout.write(`${JSON.stringify({ loadavg_start: loadStart, loadavg_end: loadavg().map(round), mcp_http: http }, null, 2)}\n`);
      process.stderr.write(`\n${mcpHttpReport(http, values.quick === true ? 2 : 20, values.quick === true ? 10 : 50)}`);
      return;
    }
    if (values.only !== 'chain') throw new Error(`--only: unknown section "${values.only}" (known: chain, mcp-http)`);
    const plan = values.quick === true ? QUICK : FULL;
    const cacheDir = values['cache-dir'] === undefined ? DEFAULT_CACHE_DIR : resolve(values['cache-dir']);
    const loadStart = loadavg().map(round);
    const chain = await benchChain(plan, cacheDir, { supported: undefined, notes: [] });
    process.stdout.write(`${JSON.stringify({ loadavg_start: loadStart, loadavg_end: loadavg().map(round), chain, ratios: chainRatios(chain) }, null, 2)}\n`);
    return;
  }
  const clientsToo = values.from === undefined && values['no-clients'] !== true;
  const result =
    values.from === undefined
      ? await measureAll(values.quick === true, values['cache-dir'] === undefined ? DEFAULT_CACHE_DIR : resolve(values['cache-dir']))
      : BenchResultSchema.parse(JSON.parse(await readFile(resolve(values.from), 'utf8')));
  if (values.out !== undefined) {
    const out = resolve(values.out);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
    progress(`wrote ${out}`);
  }
  if (values['write-docs'] === true) {
    const page = join(ROOT, PERFORMANCE_PAGE);
    await writeFile(page, replaceBlock(await readFile(page, 'utf8'), markdownReport(result)));
    progress(`rewrote the generated performance block of ${page}`);
    const readme = join(ROOT, SUMMARY_PAGE);
    await writeFile(readme, replaceBlock(await readFile(readme, 'utf8'), summaryTable(result), SUMMARY_PAGE, SUMMARY_START, SUMMARY_END));
    progress(`rewrote the generated table of ${readme}`);
  }
  // The clients (MCP gateway, Claude Code bridge) report beside the main result, not in its JSON.
  const clients = clientsToo
    ? `\n${mcpReport(await benchMcp(values.quick === true, progress))}\n${claudeCodeReport(await benchClaudeCode(values.quick === true, progress))}\n${agentsReport(await benchAgents(values.quick === true, progress))}\n${telemetryReport(await benchTelemetry(values.quick === true, progress))}`
    : '';
  const human = `${textReport(result)}${values.markdown === true ? `\n${markdownReport(result)}` : ''}${clients}`;
  if (values.json === true) {
    process.stderr.write(human);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    process.stdout.write(human);
  }
  // The framework wrappers' own table (scripts/bench/frameworks.ts), beside the JSON result when saved.
  if (clientsToo) {
    const frameworks = await benchFrameworks(values.quick === true);
    (values.json === true ? process.stderr : process.stdout).write(`\n${frameworksReport(frameworks)}`);
    if (values.out !== undefined) await writeFile(join(dirname(resolve(values.out)), 'frameworks.json'), `${JSON.stringify(frameworks, null, 2)}\n`);
  }
}

// Exit explicitly: jco (loaded when a component is transpiled) leaves an I/O thread running.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
