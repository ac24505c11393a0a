/**
 * The benchmark's human output: a plain-text report for the terminal and a markdown section for the
 * README, both rendered from the JSON result (so an old results file can be rendered again).
 */
import type { BenchResult, ColdSample, Stats } from './result.js';

type Cell = string | number;

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  if (Math.abs(x) >= 100) return String(Math.round(x));
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function times(x: number): string {
  return `${x >= 10 ? Math.round(x) : x.toFixed(1)}×`;
}

/** A text table: first column left-aligned, the others right-aligned. */
function textTable(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(cells[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

function mdTable(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const row = (r: readonly Cell[]): string => `| ${r.map((c) => (typeof c === 'number' ? fmt(c) : c)).join(' | ')} |`;
  return [row(head), `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(row)].join('\n');
}

function load(l: readonly number[]): string {
  return l.map((x) => x.toFixed(2)).join(' / ');
}

/** The machine line quoted with every figure. */
export function machineLine(r: BenchResult): string {
  const m = r.machine;
  return `${m.cpu}, ${m.cores} cores, Node ${m.node} (${m.platform}); load average ${load(m.loadavg_start)} at start, ${load(m.loadavg_end)} at end; ${r.started_at.slice(0, 10)}${r.quick ? ' (--quick: few samples)' : ''}`;
}

function statRow(name: string, via: string, s: Stats, vs = ''): Cell[] {
  return [name, via, s.median_us, s.p99_us, s.calls_per_s, vs];
}

function latencyRows(r: BenchResult): Cell[][] {
  const rows: Cell[][] = [];
  const rt = r.baselines.worker_round_trip;
  rows.push(statRow('baseline: worker postMessage round trip', '-', rt));
  rows.push(statRow('interceptor (TS guard, in-process)', 'transport', r.interceptor.transport));
  rows.push(statRow('interceptor (TS guard, in-process)', 'runner', r.interceptor.runner));
  for (const c of r.components) {
    const raw = c.raw.median_us;
    rows.push(statRow(`${c.label}: raw call, no host (baseline)`, '-', c.raw));
    if (c.metered === null) rows.push([`${c.label}: metered`, '-', 'n/a', 'n/a', 'n/a', 'not available']);
    else {
      rows.push(statRow(`${c.label}: metered`, 'transport', c.metered.transport, `${times(c.metered.transport.median_us / raw)} raw`));
      rows.push(statRow(`${c.label}: metered`, 'runner', c.metered.runner, `${times(c.metered.runner.median_us / raw)} raw`));
    }
    const vsMetered = c.metered === null ? '' : `, ${times(c.worker.transport.median_us / c.metered.transport.median_us)} metered`;
    const vsTrip = `${fmt(c.worker.transport.median_us - raw - c.worker.round_trip.median_us)} µs over raw + round trip`;
    rows.push(statRow(`${c.label}: worker`, 'transport', c.worker.transport, `${times(c.worker.transport.median_us / raw)} raw${vsMetered}; ${vsTrip}`));
    rows.push(statRow(`${c.label}: worker`, 'runner', c.worker.runner));
    rows.push(statRow(`${c.label}: worker round trip, same time (baseline)`, '-', c.worker.round_trip, ''));
  }
  for (const s of r.subprocess) {
    rows.push(statRow(`bare spawn: ${s.command.join(' ')} (baseline)`, '-', s.bare));
    rows.push(statRow(`subprocess hook: ${s.id}`, 'runner', s.hook, `${times(s.hook.median_us / s.bare.median_us)} bare spawn`));
  }
  const { chain } = r;
  rows.push(statRow(`chain of ${chain.length} × ${chain.guest}: worker`, 'runner', chain.worker, `${fmt(chain.worker.median_us / chain.length)} µs/hook`));
  if (chain.metered === null) rows.push([`chain of ${chain.length} × ${chain.guest}: metered`, '-', 'n/a', 'n/a', 'n/a', 'not available']);
  else rows.push(statRow(`chain of ${chain.length} × ${chain.guest}: metered`, 'runner', chain.metered, `${fmt(chain.metered.median_us / chain.length)} µs/hook`));
  return rows;
}

function coldCell(s: ColdSample): string {
  const t = s.timings_ms;
  const compile = s.meter_cache_hit === null ? 'compile' : s.meter_cache_hit ? 'compile' : 'instrument+compile';
  const parts = [`transpile ${fmt(t['transpile'] ?? Number.NaN)}`, `${compile} ${fmt(t['compile'] ?? Number.NaN)}`, `instantiate ${fmt(t['instantiate'] ?? Number.NaN)}`];
  return `${fmt(s.first_call_ms)} (${parts.join(', ')})`;
}

function coldRows(r: BenchResult): Cell[][] {
  return r.cold_start.map((c) => [c.label, c.isolation, coldCell(c.cold), coldCell(c.warm)]);
}

function concurrencyRows(r: BenchResult): Cell[][] {
  const byCase = new Map<string, Map<number, number>>();
  for (const row of r.concurrency) {
    const m = byCase.get(row.case) ?? new Map<number, number>();
    m.set(row.callers, row.calls_per_s);
    byCase.set(row.case, m);
  }
  const callers = [...new Set(r.concurrency.map((c) => c.callers))].sort((a, b) => a - b);
  const lo = callers[0] ?? 1;
  const hi = callers[callers.length - 1] ?? lo;
  return [...byCase].map(([name, m]) => [name, m.get(lo) ?? Number.NaN, m.get(hi) ?? Number.NaN, times((m.get(hi) ?? Number.NaN) / (m.get(lo) ?? Number.NaN))]);
}

function concurrencyHead(r: BenchResult): string[] {
  const callers = [...new Set(r.concurrency.map((c) => c.callers))].sort((a, b) => a - b);
  return ['case', `${callers[0] ?? 1} caller: calls/s`, `${callers[callers.length - 1] ?? 1} callers: calls/s`, 'speed-up'];
}

function ratioRows(r: BenchResult): Cell[][] {
  return r.ratios.map((x) => [
    x.name,
    x.unit === 'x' ? times(x.value) : `${fmt(x.value)} µs`,
    x.target ?? '',
    x.met === null ? '' : x.met ? 'met' : 'NOT met',
  ]);
}

/** The plain-text report. */
export function textReport(r: BenchResult): string {
  const out: string[] = [];
  out.push(`basis-hooks benchmark — ${machineLine(r)}; ${fmt(r.duration_s)} s`);
  out.push(`raw-call baseline: ${r.availability.unguarded === 'host' ? "the host's instantiateUnguarded" : "the bench's own jco transpile (host's instantiateUnguarded not present)"}; cold start from ${r.availability.cold_start_library === 'dist' ? 'the built library (dist/)' : 'the TypeScript sources'}`);
  for (const note of r.availability.notes) out.push(`note: ${note}`);
  out.push('', 'Per-call latency, one caller (via runner = HookRunner.pre; via transport = transport.invoke alone)');
  out.push(textTable(['case', 'via', 'median µs', 'p99 µs', 'calls/s', 'vs baseline'], latencyRows(r)));
  out.push('', 'Comparisons (medians; targets from the performance issue)');
  out.push(textTable(['comparison', 'value', 'target', ''], ratioRows(r)));
  out.push('', `Throughput with concurrent callers (each through HookRunner)`);
  out.push(textTable(concurrencyHead(r), concurrencyRows(r)));
  out.push('', 'Cold start: first call in a fresh process, ms (load breakdown in ms)');
  out.push(textTable(['guest', 'isolation', 'empty transpile cache', 'warm transpile cache'], coldRows(r)));
  return `${out.join('\n')}\n`;
}

function targetSummary(r: BenchResult, prefix: string): string | undefined {
  const rows = r.ratios.filter((x) => x.name.includes(prefix) && x.met !== null);
  if (rows.length === 0) return undefined;
  const met = rows.filter((x) => x.met === true).length;
  const values = rows.map((x) => x.value);
  return `${met} of ${rows.length} guests (${times(Math.min(...values))}–${times(Math.max(...values))})`;
}

/** The README "Performance" section. */
export function markdownReport(r: BenchResult): string {
  const out: string[] = [];
  out.push('## Performance', '');
  out.push(
    `Measured with \`npm run bench\` on ${machineLine(r)}. Medians per call from one caller (p99 and more in \`npm run bench -- --json\`). The machine is shared with other work, so read the figures as ±20 %.`,
    '',
  );
  const metered = r.availability.metered;
  const head = [
    'guest (`guard` policy)',
    'raw call, no host',
    ...(metered ? ['metered', 'metered ÷ raw'] : []),
    'worker',
    'bare worker round trip',
    ...(metered ? ['worker ÷ metered'] : []),
  ];
  const rows: Cell[][] = r.components.map((c) => {
    const m = c.metered;
    return [
      c.label,
      c.raw.median_us,
      ...(metered ? [m === null ? 'n/a' : m.transport.median_us, m === null ? 'n/a' : times(m.transport.median_us / c.raw.median_us)] : []),
      c.worker.transport.median_us,
      c.worker.round_trip.median_us,
      ...(metered ? [m === null ? 'n/a' : times(c.worker.transport.median_us / m.transport.median_us)] : []),
    ];
  });
  out.push(
    'WebAssembly component hooks, µs per call through the transport. *Raw call*: the same component\'s `handle` called on the same thread through the same glue, with nothing guarding it. *Bare worker round trip*: a `postMessage` to a worker that echoes, timed alternately with the worker hook. WAT runs the `allow` guest.',
    '',
  );
  out.push(mdTable(head, rows), '');
  if (metered) {
    const a = targetSummary(r, 'metered ÷ raw');
    const b = targetSummary(r, 'worker ÷ metered');
    if (a !== undefined) out.push(`- metered within 2× of the raw call: ${a}`);
    if (b !== undefined) out.push(`- metered ≥ 10× faster than worker: ${b}`);
    out.push('');
  }
  out.push('Cold start: the first call in a fresh process (load included), ms:', '');
  out.push(
    mdTable(
      ['guest', 'isolation', 'empty transpile cache', 'warm cache'],
      r.cold_start.map((c) => [c.label, c.isolation, c.cold.first_call_ms, c.warm.first_call_ms]),
    ),
    '',
  );
  out.push('Other hooks and baselines, µs per call through `HookRunner`:', '');
  const other: Cell[][] = [
    ['in-process interceptor (TS `guard`)', r.interceptor.runner.median_us, r.interceptor.runner.calls_per_s],
    ...r.subprocess.flatMap((s): Cell[][] => [
      [`subprocess hook, ${s.id} (\`${s.command.join(' ')}\`)`, s.hook.median_us, s.hook.calls_per_s],
      ['bare spawn of the same command', s.bare.median_us, s.bare.calls_per_s],
    ]),
    [`chain of ${r.chain.length} component hooks (${r.chain.guest}), worker`, r.chain.worker.median_us, r.chain.worker.calls_per_s],
    ...(r.chain.metered === null ? [] : [[`chain of ${r.chain.length} component hooks (${r.chain.guest}), metered`, r.chain.metered.median_us, r.chain.metered.calls_per_s]]),
  ];
  out.push(mdTable(['hook', 'median µs', 'calls/s'], other), '');
  out.push('Throughput with concurrent callers (through `HookRunner`):', '');
  out.push(mdTable(concurrencyHead(r), concurrencyRows(r)), '');
  return `${out.join('\n')}\n`;
}
