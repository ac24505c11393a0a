/**
 * Cold start of `basis-hooks claude-code`: Claude Code starts a process per tool call, so the whole
 * process — node start, imports, config, hook load, the chain, exit — is the cost of a hook. Each case
 * is a fresh `node dist/cli/claude-code/main.js --config …` (the bundled entry `--print-settings`
 * wires in; one case runs the full CLI for comparison) fed one PreToolUse event, timed from
 * spawn to exit; the cases run round-robin so load drift hits them alike. Component cases use a warm
 * transpile cache (one untimed run first). Baselines in the same run: a bare `node -e ""`, and the
 * Python guard of the dialect tests run the way Claude Code runs it.
 *
 *   npx tsx scripts/bench/claude-code.ts [--quick] [--json]     (after npm run build && npm run build-guests)
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { guestById, ROOT } from './guests.js';
import { round } from './stats.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** The bundled entry `--print-settings` wires in (built by `npm run build`). */
const FAST_ENTRY = join(ROOT, 'dist', 'cli', 'claude-code', 'main.js');
const CACHE_DIR = join(ROOT, '.cache', 'bench');
const PYTHON_GUARD = join(ROOT, 'test', 'fixtures', 'claude-code', 'block_rm_rf.py');

const EVENT = `${JSON.stringify({
  session_id: 'bench',
  cwd: tmpdir(),
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'git push origin feature' },
  tool_use_id: 'toolu_bench',
})}\n`;

/** One case's wall-clock figures, ms. */
export interface ColdCase {
  readonly id: string;
  readonly label: string;
  readonly n: number;
  readonly median_ms: number;
  readonly p90_ms: number;
  readonly min_ms: number;
}

export interface ClaudeCodeBench {
  readonly cases: readonly ColdCase[];
}

function runOnce(argv: readonly string[]): Promise<number> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error('empty argv');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, BASIS_HOOKS_CACHE_DIR: CACHE_DIR } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${String(code)}: ${stderr}`));
      else resolve(ms);
    });
    child.stdin.on('error', () => {});
    child.stdin.end(EVENT);
  });
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** Measure; `quick` runs each case a few times only. */
export async function benchClaudeCode(quick = false, log: (line: string) => void = () => {}): Promise<ClaudeCodeBench> {
  const n = quick ? 3 : 20;
  const dir = await mkdtemp(join(tmpdir(), 'basis-bench-cc-'));
  await mkdir(CACHE_DIR, { recursive: true });
  const config = async (name: string, hooks: unknown[]): Promise<string> => {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }));
    return file;
  };
  const claudeCode = (file: string): string[] => [process.execPath, FAST_ENTRY, '--config', file];
  const cases: Array<{ id: string; label: string; argv: string[]; samples: number[] }> = [
    { id: 'node', label: 'baseline: node -e ""', argv: [process.execPath, '-e', ''], samples: [] },
    { id: 'python-guard', label: 'baseline: the Python rm -rf guard alone (python3 block_rm_rf.py)', argv: ['python3', PYTHON_GUARD], samples: [] },
    { id: 'empty', label: 'claude-code, empty chain', argv: claudeCode(await config('empty', [])), samples: [] },
    { id: 'empty-full-cli', label: 'the same through the main CLI (basis-hooks claude-code)', argv: [process.execPath, CLI, 'claude-code', '--config', join(dir, 'empty.json')], samples: [] },
    {
      id: 'c-metered',
      label: 'claude-code, metered C component (guard)',
      argv: claudeCode(await config('c', [{ name: 'guard', event: 'pre_tool_use', component: guestById('c').path, isolation: 'metered' }])),
      samples: [],
    },
    {
      id: 'js-quickjs',
      label: 'claude-code, JS component (QuickJS guard)',
      argv: claudeCode(await config('js', [{ name: 'guard', event: 'pre_tool_use', component: guestById('js-quickjs').path }])),
      samples: [],
    },
    {
      id: 'python-dialect',
      label: 'claude-code, the Python guard as a dialect "claude-code" hook',
      argv: claudeCode(await config('py', [{ name: 'no-rm-rf', event: 'pre_tool_use', dialect: 'claude-code', command: ['python3', PYTHON_GUARD] }])),
      samples: [],
    },
  ];
  try {
    log(`claude-code: warming the transpile cache, then ${n} rounds of ${cases.length} cases`);
    for (const c of cases) await runOnce(c.argv);
    for (let i = 0; i < n; i++) for (const c of cases) c.samples.push(await runOnce(c.argv));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    cases: cases.map((c) => {
      const sorted = [...c.samples].sort((a, b) => a - b);
      return { id: c.id, label: c.label, n: sorted.length, median_ms: round(quantile(sorted, 0.5)), p90_ms: round(quantile(sorted, 0.9)), min_ms: round(sorted[0] ?? Number.NaN) };
    }),
  };
}

/** The report as a markdown table. */
export function claudeCodeReport(result: ClaudeCodeBench): string {
  return [
    'basis-hooks claude-code: one process per event, spawn to exit, ms (warm transpile cache)',
    '',
    '| case | median | p90 | min |',
    '| --- | ---: | ---: | ---: |',
    ...result.cases.map((c) => `| ${c.label} | ${c.median_ms} | ${c.p90_ms} | ${c.min_ms} |`),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  const result = await benchClaudeCode(values.quick, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : claudeCodeReport(result));
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
