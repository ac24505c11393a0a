/**
 * The sandbox's limits, measured: how long past `timeout_ms` each runaway of issue 8 holds a call, per
 * isolation (the start-function runaway included: a start function that loops every time the instance
 * is remade), and how far the host's RSS grows under the memory and table bombs. docs/sandbox-and-limits.md
 * quotes its output. Not part of `npm test` (which only holds each bound at
 * deadline + 100 ms).
 *
 *   npx tsx scripts/bench/limits.ts [--runs 5] [--timeouts 20,100,1000] [--only pointer-chase,...] [--out bench/results/limits.json]
 *
 * Prints markdown tables: per runaway and isolation, the worst and the median overshoot over every
 * run at every timeout (ms), then the next call; and per bomb and isolation the peak RSS growth.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { componentTransport, type ComponentIsolation, type ComponentOptions, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../hostile/build.js';
import { RUNAWAYS } from '../hostile/runaways.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    timeouts: { type: 'string', default: '20,100,1000' },
    only: { type: 'string' },
    out: { type: 'string' },
    'cache-dir': { type: 'string', default: '.cache/bench-limits' },
  },
});
const runs = Number(values.runs);
const timeouts = values.timeouts.split(',').map(Number);
const only = values.only?.split(',');
const cacheDir = values['cache-dir'];
const ISOLATIONS = ['metered', 'worker'] as const satisfies readonly ComponentIsolation[];

function request(tool: string) {
  return { hook_schema: 1, event: 'pre_tool_use', workspace: '/w', agent_id: 'bench', tool_call_id: 'c', tool_name: tool, input: {} } as const;
}

async function timed(t: ComponentTransport, tool: string): Promise<{ ok: boolean; code: string | undefined; ms: number }> {
  const started = performance.now();
  const result = await t.invoke(request(tool), { hook: 'bench' });
  return { ok: result.ok, code: result.ok ? undefined : result.failure.code, ms: performance.now() - started };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN;
}

const round = (x: number): number => Math.round(x * 10) / 10;

interface Measured {
  /** ms past the deadline, every run at every timeout. */
  readonly overshoot_ms: number[];
  /** The call after each runaway (a fresh instance), ms. */
  readonly next_call_ms: number[];
  /** Calls after a runaway that did not answer normally. */
  readonly missed: string[];
}

/**
 * One runaway in one isolation: for every timeout, `runs` times, `prepare` (if any) and then the
 * call that runs away, and a normal call after it.
 */
async function measureRunaway(path: string, isolation: ComponentIsolation, extra: Partial<ComponentOptions>, run: (t: ComponentTransport) => Promise<{ code: string | undefined; ms: number }>, after?: (t: ComponentTransport) => Promise<void>): Promise<Measured> {
  const overshoot: number[] = [];
  const next: number[] = [];
  const missed: string[] = [];
  for (const timeoutMs of timeouts) {
    const t = componentTransport({ path, cache_dir: cacheDir, isolation, timeout_ms: timeoutMs, pool_size: 1, ...extra });
    await t.load();
    await timed(t, 'ok');
    await timed(t, 'ok');
    for (let i = 0; i < runs; i++) {
      const ran = await run(t);
      if (ran.code !== 'timeout') throw new Error(`${path} ${isolation} ${timeoutMs}: ended ${ran.code ?? 'ok'}`);
      overshoot.push(round(ran.ms - timeoutMs));
      await after?.(t);
      const answered = await timed(t, 'ok');
      if (!answered.ok) missed.push(`${timeoutMs} ms: ${answered.code ?? ''}`);
      next.push(round(answered.ms));
    }
    await t.close();
  }
  return { overshoot_ms: overshoot, next_call_ms: next, missed };
}

const runaways: Record<string, Record<string, Measured>> = {};
const labels: Record<string, string> = {};
for (const runaway of RUNAWAYS) {
  if (only !== undefined && !only.includes(runaway.guest)) continue;
  const path = await hostileGuest(runaway.guest);
  labels[runaway.guest] = runaway.what;
  runaways[runaway.guest] = {};
  for (const isolation of ISOLATIONS) {
    const m = await measureRunaway(path, isolation, {}, (t) => timed(t, 'run'));
    (runaways[runaway.guest] as Record<string, Measured>)[isolation] = m;
    process.stderr.write(`${runaway.guest} ${isolation}: overshoot max ${Math.max(...m.overshoot_ms)} ms, median ${median(m.overshoot_ms)} ms\n`);
  }
}

// A start function that loops whenever the instance is remade (after a trap): the call that has to
// remake it is the runaway.
if (only === undefined || only.includes('start-flag')) {
  const path = await hostileGuest('start-flag');
  const dir = await mkdtemp(join(tmpdir(), 'basis-limits-start-'));
  labels['start-flag'] = 'a start function that loops (run again at every re-instantiation after a trap)';
  runaways['start-flag'] = {};
  try {
    for (const isolation of ISOLATIONS) {
      const m = await measureRunaway(
        path,
        isolation,
        { grants: { read_only_dirs: { '/flags': dir } } },
        async (t) => {
          await writeFile(join(dir, 'loop'), '');
          await timed(t, 'trap');
          return timed(t, 'ok');
        },
        async () => {
          await rm(join(dir, 'loop'), { force: true });
        },
      );
      (runaways['start-flag'] as Record<string, Measured>)[isolation] = m;
      process.stderr.write(`start-flag ${isolation}: overshoot max ${Math.max(...m.overshoot_ms)} ms, median ${median(m.overshoot_ms)} ms\n`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The bombs: peak RSS growth of this process over a few calls that each hit the cap.
const MEMORY_MB = 64;
const bombs: Record<string, Record<string, { peak_rss_growth_mb: number; codes: string[] }>> = {};
const BOMBS = [
  ['table-bomb', '32 funcref tables grown by 10 million elements each'],
  ['memory-bomb-16', '16 core modules growing 60 MiB each (960 MiB)'],
] as const;
for (const [guest, what] of BOMBS) {
  if (only !== undefined && !only.includes(guest)) continue;
  labels[guest] = what;
  bombs[guest] = {};
  for (const isolation of ISOLATIONS) {
    const t = componentTransport({ path: await hostileGuest(guest), cache_dir: cacheDir, isolation, memory_mb: MEMORY_MB, timeout_ms: 5000, pool_size: 1 });
    await t.load();
    await timed(t, 'ok');
    const before = process.memoryUsage().rss;
    let peak = before;
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      codes.push((await timed(t, 'run')).code ?? 'ok');
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    await t.close();
    (bombs[guest] as Record<string, { peak_rss_growth_mb: number; codes: string[] }>)[isolation] = { peak_rss_growth_mb: round((peak - before) / 1048576), codes };
    process.stderr.write(`${guest} ${isolation}: ${codes.join(', ')}, peak RSS +${round((peak - before) / 1048576)} MiB\n`);
  }
}

const out: string[] = [];
out.push(
  `Runaways, timeout_ms ${timeouts.join(' / ')}, ${runs} runs each: ms past the deadline, worst / median; then the next call (a fresh instance), median / worst ms and how many missed a deadline (${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} at the end)`,
  '',
  '| runaway | metered: past deadline | metered: next call | worker: past deadline | worker: next call |',
  '|---|---|---|---|---|',
);
for (const [guest, byIsolation] of Object.entries(runaways)) {
  const cells = ISOLATIONS.flatMap((isolation) => {
    const m = byIsolation[isolation];
    if (m === undefined) return ['', ''];
    return [`${Math.max(...m.overshoot_ms).toFixed(1)} / ${median(m.overshoot_ms).toFixed(1)}`, `${median(m.next_call_ms).toFixed(1)} / ${Math.max(...m.next_call_ms).toFixed(1)}${m.missed.length > 0 ? ` (${m.missed.length} missed)` : ''}`];
  });
  out.push(`| ${labels[guest] ?? guest} | ${cells.join(' | ')} |`);
}
if (Object.keys(bombs).length > 0) {
  out.push('', `Bombs, memory_mb ${MEMORY_MB}, 4 calls each: how every call ended, and the host's peak RSS growth`, '', '| bomb | metered | worker |', '|---|---|---|');
  for (const [guest, byIsolation] of Object.entries(bombs)) {
    const cells = ISOLATIONS.map((isolation) => {
      const b = byIsolation[isolation];
      return b === undefined ? '' : `${[...new Set(b.codes)].join(', ')}; +${b.peak_rss_growth_mb} MiB`;
    });
    out.push(`| ${labels[guest] ?? guest} | ${cells.join(' | ')} |`);
  }
}
process.stdout.write(`${out.join('\n')}\n`);

if (values.out !== undefined) {
  const file = resolve(values.out);
  await mkdir(dirname(file), { recursive: true });
  const result = { measured_at: new Date().toISOString(), node: process.version, cores: cpus().length, loadavg_end: loadavg(), runs, timeouts_ms: timeouts, runaways, bombs, labels };
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`wrote ${file}\n`);
}
process.exit(0);
