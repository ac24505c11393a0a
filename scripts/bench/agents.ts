/**
 * Per-event overhead of the resident server and its clients — what an agent pays per tool call when
 * its command hook is `basis-hooks install`'s client. Each case is a fresh process fed one Claude Code
 * PreToolUse event, timed from spawn to exit, round-robin so load drift hits them alike. Baselines in
 * the same run: a bare `node -e ""` and a bare `curl` of the server's health endpoint over the socket.
 * The chain is the metered C force-push guard (one component).
 *
 *   npx tsx scripts/bench/agents.ts [--quick] [--json]     (after npm run build && npm run build-guests)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { guestById, ROOT } from './guests.js';
import { round } from './stats.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** The bundled Node client (built by `npm run build`). */
const HOOK_ENTRY = join(ROOT, 'dist', 'cli', 'hook', 'main.js');
const EVENT = JSON.stringify({ session_id: 'bench', cwd: tmpdir(), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push origin feature' }, tool_use_id: 'toolu_bench' });

/** One case's figures, ms. */
export interface AgentCase {
  readonly id: string;
  readonly label: string;
  readonly n: number;
  readonly median_ms: number;
  readonly p90_ms: number;
  readonly min_ms: number;
}

export interface AgentsBench {
  readonly cases: readonly AgentCase[];
  /** The installed client's median minus `node -e ""`'s and minus bare curl's, ms. */
  readonly overhead_vs_node_ms: number;
  readonly overhead_vs_curl_ms: number;
  /** With the server stopped: the installed client's median over today's command's (`basis-hooks claude-code`); ≤ 1 is the target. */
  readonly cold_script_vs_today: number;
}

function once(file: string, args: readonly string[], stdin: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, [...args], { stdio: ['pipe', 'ignore', 'ignore'], env });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${file} ${args.join(' ')} exited ${String(code)}`))));
    child.stdin.end(stdin);
  });
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/** Run the cases; `rounds` of each, round-robin. */
export async function benchAgents(quick = false, log: (line: string) => void = () => {}): Promise<AgentsBench> {
  const dir = await mkdtemp(join(tmpdir(), 'basis-bench-agents-'));
  const socket = join(dir, 'run', 'hooks.sock');
  const config = join(dir, 'hooks.json');
  await writeFile(config, JSON.stringify({ hook_schema: 1, hooks: [{ name: 'force-push', event: 'pre_tool_use', tools: ['Bash'], component: guestById('c').path }] }));
  const project = join(dir, 'proj');
  // The project installed basis-hooks (as `npm install basis-hooks` leaves it): the client's
  // fallback finds the package there, as it does for a user — no --command.
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await symlink(ROOT, join(project, 'node_modules', 'basis-hooks'));
  await new Promise<void>((resolve, reject) => {
    const c = spawn(process.execPath, [CLI, 'install', '--agent', 'claude-code', '--config', config, '--project', project, '--socket', socket], { stdio: 'ignore' });
    c.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`install exited ${String(code)}`))));
  });
  const server: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--config', config, '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    server.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('listening on')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${err}`)));
  });
  const env = { ...process.env };
  const cases: Array<{ id: string; label: string; run: () => Promise<number> }> = [
    { id: 'node', label: 'baseline: node -e ""', run: () => once(process.execPath, ['-e', ''], '', env) },
    { id: 'curl', label: 'baseline: bare curl --unix-socket (GET /healthz)', run: () => once('curl', ['-s', '-o', '/dev/null', '--unix-socket', socket, 'http://localhost/healthz'], '', env) },
    { id: 'script', label: 'installed client (sh + curl), server running', run: () => once('/bin/sh', [join(project, '.basis-hooks', 'hook.sh'), 'claude-code'], EVENT, env) },
    { id: 'node-client', label: 'Node client (dist/cli/hook/main.js --agent claude-code), server running', run: () => once(process.execPath, [HOOK_ENTRY, '--agent', 'claude-code', '--socket', socket], EVENT, env) },
    { id: 'cold', label: 'no server: the Node client in-process (--config, cold)', run: () => once(process.execPath, [HOOK_ENTRY, '--agent', 'claude-code', '--config', config, '--no-server'], EVENT, env) },
    // What an agent pays per event when the server is stopped: the installed script, curl refused, then its fallback.
    { id: 'script-cold', label: 'no server: the installed client (sh + curl refused + in-process fallback)', run: () => once('/bin/sh', [join(project, '.basis-hooks', 'hook.sh'), 'claude-code'], EVENT, { ...env, BASIS_HOOKS_SOCKET: join(dir, 'nobody', 'hooks.sock') }) },
    { id: 'claude-code', label: 'today\'s command: basis-hooks claude-code (bundled entry, cold)', run: () => once(process.execPath, [join(ROOT, 'dist', 'cli', 'claude-code', 'main.js'), '--config', config], EVENT, env) },
  ];
  const rounds = quick ? 5 : 20;
  const times = new Map<string, number[]>(cases.map((c) => [c.id, []]));
  try {
    for (const c of cases) await c.run(); // warm: transpile cache, page cache
    for (let r = 0; r < rounds; r++) {
      for (const c of cases) times.get(c.id)?.push(await c.run());
      log(`agents bench: round ${r + 1}/${rounds}`);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
  const out = cases.map((c) => {
    const sorted = [...(times.get(c.id) ?? [])].sort((a, b) => a - b);
    return { id: c.id, label: c.label, n: sorted.length, median_ms: round(quantile(sorted, 0.5)), p90_ms: round(quantile(sorted, 0.9)), min_ms: round(sorted[0] ?? Number.NaN) };
  });
  const median = (id: string): number => out.find((c) => c.id === id)?.median_ms ?? Number.NaN;
  return {
    cases: out,
    overhead_vs_node_ms: round(median('script') - median('node')),
    overhead_vs_curl_ms: round(median('script') - median('curl')),
    cold_script_vs_today: Math.round((median('script-cold') / median('claude-code')) * 100) / 100,
  };
}

/** The figures as a markdown table. */
export function agentsReport(result: AgentsBench): string {
  return [
    'Agent hook clients, ms per event from spawn to exit (one PreToolUse; metered C guard):',
    '',
    '| case | median | p90 | min |',
    '| --- | ---: | ---: | ---: |',
    ...result.cases.map((c) => `| ${c.label} | ${c.median_ms} | ${c.p90_ms} | ${c.min_ms} |`),
    '',
    `installed client with a running server: ${result.overhead_vs_curl_ms} ms over a bare curl, ${result.overhead_vs_node_ms} ms against node -e "" (target: ≤ 25 ms median per event)`,
    `installed client with the server stopped: ${result.cold_script_vs_today}× today's command (target: ≤ 1, no worse than basis-hooks claude-code)`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, json: { type: 'boolean' } } });
  const result = await benchAgents(values.quick === true, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(values.json === true ? `${JSON.stringify(result, null, 2)}\n` : agentsReport(result));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
