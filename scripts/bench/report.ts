/**
 * The benchmark's human output: a plain-text report for the terminal, the generated section of
 * docs/performance.md and the cost column of the README's "where a hook can live" table, all rendered
 * from the JSON result (so an old results file can be rendered again).
 */
import type { BenchResult, ColdSample, Stats } from './result.js';
import { policiesMarkdown, policiesText, policyLoadRows } from './policies-report.js';

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

function xf(s: Stats | null, floor: Stats): string {
  return s === null ? 'n/a' : times(s.median_us / floor.median_us);
}

function latencyRows(r: BenchResult): Cell[][] {
  const rows: Cell[][] = [];
  const b = r.baselines;
  rows.push(statRow('baseline: JSON floor (stringify + parse, request and answer)', '-', b.json_floor));
  rows.push(statRow('baseline: worker postMessage round trip (persistent listener)', '-', b.post_round_trip));
  rows.push(statRow('baseline: worker SharedArrayBuffer round trip (Atomics)', '-', b.sab_round_trip));
  const i = r.interceptor;
  rows.push(statRow('interceptor (TS guard, in-process)', 'transport', i.transport, `${xf(i.transport, i.floor)} floor`));
  rows.push(statRow('interceptor (TS guard, in-process)', 'runner', i.runner, `${xf(i.runner, i.floor)} floor`));
  const p = r.peer;
  rows.push(statRow(`peer run: JSON floor`, '-', p.in_thread.floor));
  rows.push(statRow(`peer run: Extism JS SDK in-thread (guard)`, 'call+parse+reset', p.in_thread.extism, `${xf(p.in_thread.extism, p.in_thread.floor)} floor`));
  if (p.in_thread.metered !== null) rows.push(statRow(`peer run: ours, ${p.guest} metered`, 'runner', p.in_thread.metered, `${xf(p.in_thread.metered, p.in_thread.floor)} floor`));
  if (p.in_thread.metered_wat !== null) rows.push(statRow('peer run: ours, WAT metered', 'runner', p.in_thread.metered_wat, `${xf(p.in_thread.metered_wat, p.in_thread.floor)} floor`));
  rows.push(statRow('peer run: ours, interceptor', 'runner', p.in_thread.interceptor, `${xf(p.in_thread.interceptor, p.in_thread.floor)} floor`));
  rows.push(statRow('peer run: Extism JS SDK worker mode (guard)', 'call+parse+reset', p.worker.extism, `${xf(p.worker.extism, p.worker.floor)} floor`));
  rows.push(statRow(`peer run: ours, ${p.guest} worker`, 'runner', p.worker.worker, `${xf(p.worker.worker, p.worker.floor)} floor`));
  for (const c of r.components) {
    const t = c.in_thread;
    rows.push(statRow(`${c.label}: raw call through jco's glue (baseline)`, '-', t.raw, `${xf(t.raw, t.floor)} floor`));
    if (t.raw_direct !== null) rows.push(statRow(`${c.label}: raw direct call (baseline)`, '-', t.raw_direct, `${xf(t.raw_direct, t.floor)} floor`));
    else rows.push([`${c.label}: raw direct call`, '-', 'n/a', 'n/a', 'n/a', c.direct.reason ?? 'not direct-callable']);
    if (t.metered_transport === null || t.metered_runner === null) rows.push([`${c.label}: metered`, '-', 'n/a', 'n/a', 'n/a', 'not available']);
    else {
      rows.push(statRow(`${c.label}: metered`, 'transport', t.metered_transport, `${times(t.metered_transport.median_us / t.raw.median_us)} raw`));
      rows.push(statRow(`${c.label}: metered`, 'runner', t.metered_runner, `${xf(t.metered_runner, t.floor)} floor`));
    }
    const w = c.worker;
    rows.push(statRow(`${c.label}: worker`, 'transport', w.transport, `${fmt(w.transport.median_us - t.raw.median_us - w.post_round_trip.median_us)} µs over raw + postMessage round trip`));
    rows.push(statRow(`${c.label}: worker`, 'runner', w.runner, `${xf(w.runner, t.floor)} floor`));
    rows.push(statRow(`${c.label}: postMessage / SAB round trips, same time`, '-', w.post_round_trip, `SAB ${fmt(w.sab_round_trip.median_us)} µs`));
  }
  for (const s of r.subprocess) {
    rows.push(statRow(`bare spawn: ${s.command.join(' ')} (baseline)`, '-', s.bare));
    rows.push(statRow(`subprocess hook: ${s.id}`, 'runner', s.hook, `${times(s.hook.median_us / s.bare.median_us)} bare spawn`));
  }
  const { chain } = r;
  const what = `chain of ${chain.length} × ${chain.guest} (${chain.instances_of_one_component} instances of one component)`;
  rows.push(statRow(`${what}: worker`, 'runner', chain.worker, `${fmt(chain.worker.median_us / chain.length)} µs/hook`));
  if (chain.metered === null) rows.push([`${what}: metered`, '-', 'n/a', 'n/a', 'n/a', 'not available']);
  else rows.push(statRow(`${what}: metered`, 'runner', chain.metered, `${fmt(chain.metered.median_us / chain.length)} µs/hook; ${xf(chain.metered, chain.floor)} floor`));
  const hop = chain.one_hop;
  if (hop !== undefined) {
    rows.push(statRow(`chain of ${chain.length}: worker, one hop (shared workers; workers poll ${hop.spin_us} µs, the default)`, 'runner', hop.chain_spin, `${xf(hop.chain_spin, hop.one_hook_spin)} one worker hook`));
    rows.push(statRow(`one worker hook (workers poll ${hop.spin_us} µs, the default)`, 'runner', hop.one_hook_spin, hop.floor_spin === undefined ? '' : `${xf(hop.one_hook_spin, hop.floor_spin)} floor`));
    rows.push(statRow(`chain of ${chain.length}: one hop, workers sleep at once (spin_us 0)`, 'runner', hop.chain, `${xf(hop.chain, hop.chain_spin)} polling`));
    rows.push(statRow('one worker hook, workers sleep at once (spin_us 0)', 'runner', hop.one_hook, `${xf(hop.one_hook, hop.floor)} floor`));
  }
  return rows;
}

function blockRows(r: BenchResult): Cell[][] {
  return r.blocks.map((b) => [b.block, b.case, b.before.median_us, b.after.median_us, times(b.before.median_us / b.after.median_us)]);
}

function coldCell(s: ColdSample): string {
  const t = s.timings_ms;
  const compile = s.meter_cache_hit === null ? 'compile' : s.meter_cache_hit ? 'compile' : 'instrument+compile';
  const parts = [`transpile ${fmt(t['transpile'] ?? Number.NaN)}`, `${compile} ${fmt(t['compile'] ?? Number.NaN)}`, `instantiate ${fmt(t['instantiate'] ?? Number.NaN)}`];
  return `${fmt(s.first_call_ms)} (${parts.join(', ')})`;
}

function coldRows(r: BenchResult): Cell[][] {
  return [...r.cold_start.map((c): Cell[] => [c.label, c.isolation, coldCell(c.cold), coldCell(c.warm)]), ...(r.policies === undefined ? [] : policyLoadRows(r.policies))];
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

function libraryName(library: 'dist' | 'sources'): string {
  return library === 'dist' ? 'the built library (dist/)' : 'the TypeScript sources (through tsx)';
}

/** The plain-text report. */
export function textReport(r: BenchResult): string {
  const out: string[] = [];
  out.push(`basis-hooks benchmark — ${machineLine(r)}; ${fmt(r.duration_s)} s`);
  out.push(`measured ${libraryName(r.availability.library)}; cold start from ${libraryName(r.availability.cold_start_library)}`);
  for (const note of r.availability.notes) out.push(`note: ${note}`);
  out.push('', 'Per-call latency, one caller (via runner = HookRunner.pre; via transport = transport.invoke alone)');
  out.push(textTable(['case', 'via', 'median µs', 'p99 µs', 'calls/s', 'vs baseline'], latencyRows(r)));
  out.push('', 'Comparisons (medians; targets from the performance issue)');
  out.push(textTable(['comparison', 'value', 'target', ''], ratioRows(r)));
  out.push('', 'Building blocks of the hot path, each against the path it replaced (or the fallback it keeps), interleaved (µs)');
  out.push(textTable(['block', 'case', 'before', 'after', 'speed-up'], blockRows(r)));
  out.push('', `Throughput with concurrent callers (each through HookRunner)`);
  out.push(textTable(concurrencyHead(r), concurrencyRows(r)));
  out.push('', 'Cold start: first call in a fresh process, ms (load breakdown in ms)');
  out.push(textTable(['guest', 'isolation', 'empty transpile cache', 'warm transpile cache'], coldRows(r)));
  if (r.policies !== undefined) out.push('', policiesText(r.policies));
  return `${out.join('\n')}\n`;
}

/** The page the generated performance block lives on, and its markers. */
export const PERFORMANCE_PAGE = 'docs/performance.md';
export const BENCH_START = '<!-- bench:start -->';
export const BENCH_END = '<!-- bench:end -->';

/** The README's generated table of where a hook can live (its cost column is measured), and its markers. */
export const SUMMARY_PAGE = 'README.md';
export const SUMMARY_START = '<!-- bench:summary:start -->';
export const SUMMARY_END = '<!-- bench:summary:end -->';

/** Where the files the report names live: the package ships the docs, not the benchmark. */
const REPOSITORY = 'https://github.com/basis-hooks/basis-hooks';
const repoFile = (path: string): string => `[\`${path}\`](${REPOSITORY}/blob/main/${path})`;
const repoDir = (path: string): string => `[${path}](${REPOSITORY}/tree/main/${path})`;

/** A command line in Markdown: the arguments that are files of the repository are links to them. */
function mdCommand(argv: readonly string[]): string {
  const parts: string[] = [];
  let plain: string[] = [];
  const flush = (): void => {
    if (plain.length > 0) parts.push(`\`${plain.join(' ')}\``);
    plain = [];
  };
  for (const arg of argv) {
    if (/^(scripts|host|test|guest-examples|bench)\//.test(arg)) {
      flush();
      parts.push(repoFile(arg));
    } else plain.push(arg);
  }
  flush();
  return parts.join(' ');
}

/** µs as the unit a reader expects: µs below a millisecond, ms above. */
function duration(us: number): string {
  return us >= 1000 ? `${fmt(us / 1000)} ms` : `${fmt(us)} µs`;
}

function mdRow(name: string, s: Stats | null, floor: Stats, note = ''): Cell[] {
  return s === null ? [name, 'n/a', 'n/a', 'n/a', note] : [name, s.median_us, xf(s, floor), s.calls_per_s, note];
}

/** The generated block of docs/performance.md (between {@link BENCH_START} and {@link BENCH_END}). */
export function markdownReport(r: BenchResult): string {
  const out: string[] = [];
  const p = r.peer;
  out.push(
    `_Generated from ${repoFile('bench/results/latest.json')} by ${repoFile('scripts/bench.ts')} (\`npm run bench\` in a clone; see [CONTRIBUTING.md](${REPOSITORY}/blob/main/CONTRIBUTING.md#benchmarks)); do not edit by hand._`,
    '',
    `Measured with \`npm run bench\` on ${machineLine(r)}, through ${libraryName(r.availability.library)}. Medians per call from one caller (p99s in the results file). The machine is shared with other work: read the figures as ±20 % or worse when the load average is high. **JSON floor**: \`JSON.stringify\` + \`JSON.parse\` of the request and of an answer, ${fmt(r.baselines.json_floor.median_us)} µs on its own; every "× floor" below divides by the floor measured interleaved with that figure.`,
    '',
    `**The guard policy beside the peer** (one caller, through \`HookRunner.pre\`; the Extism JS SDK running the same policy as a plugin — call, parse the answer, reset — in the same run, interleaved):`,
    '',
  );
  out.push(
    mdTable(['path', 'median µs', '× JSON floor', 'calls/s', ''], [
      mdRow('JSON floor', p.in_thread.floor, p.in_thread.floor),
      mdRow(`ours: component, metered (${p.guest} guard)`, p.in_thread.metered, p.in_thread.floor),
      mdRow('ours: component, metered (WAT guard, the plugin\'s policy code)', p.in_thread.metered_wat, p.in_thread.floor),
      mdRow('ours: in-process interceptor (TS guard)', p.in_thread.interceptor, p.in_thread.floor, 'trusted code, no sandbox'),
      mdRow('Extism JS SDK, in-thread', p.in_thread.extism, p.in_thread.floor, 'no CPU bound'),
      mdRow(`ours: component, worker isolation (${p.guest} guard)`, p.worker.worker, p.worker.floor),
      mdRow('Extism JS SDK, worker mode', p.worker.extism, p.worker.floor),
      mdRow('bare worker round trip, postMessage', p.worker.post_round_trip, p.worker.floor),
      mdRow('bare worker round trip, SharedArrayBuffer', p.worker.sab_round_trip, p.worker.floor),
    ]),
    '',
  );
  out.push(
    'WebAssembly component hooks per guest language (the `guard` policy), µs per call and, in brackets, × the JSON floor measured interleaved with them. *Raw*: the component\'s `handle` on this thread with nothing guarding it, given a WIT record made once — through jco\'s glue, and through the direct canonical-ABI caller (what the transport calls it with). *Metered*: the transport (fuel, sandbox, checks), and `HookRunner.pre` around it. *Worker*: `HookRunner.pre` with worker isolation (the SharedArrayBuffer mailbox and the direct call in the worker), beside bare round trips timed alternately with it. Two in-thread instances of each guest exist while it is measured (the raw one and the metered one).',
    '',
  );
  const cell = (s: Stats | null, floor: Stats): string => (s === null ? 'n/a' : `${fmt(s.median_us)} (${times(s.median_us / floor.median_us)})`);
  out.push(
    mdTable(
      ['guest', 'raw (jco glue)', 'raw direct', 'metered transport', 'metered runner', 'worker runner', 'postMessage RTT', 'SAB RTT'],
      r.components.map((c) => {
        const t = c.in_thread;
        const w = c.worker;
        return [
          c.label,
          cell(t.raw, t.floor),
          cell(t.raw_direct, t.floor),
          cell(t.metered_transport, t.floor),
          cell(t.metered_runner, t.floor),
          cell(w.runner, t.floor),
          cell(w.post_round_trip, t.floor),
          cell(w.sab_round_trip, t.floor),
        ];
      }),
    ),
    '',
  );
  const ch = r.chain;
  out.push(`A chain of ${ch.length} hooks running the ${ch.guest} guard (${ch.instances_of_one_component} instances of one component, as ${ch.length} hooks configured with one .wasm), through \`HookRunner.pre\`:`, '');
  out.push(
    mdTable(['isolation', 'median µs', '× JSON floor', 'µs per hook'], [
      ['metered', ch.metered?.median_us ?? 'n/a', xf(ch.metered, ch.floor), ch.metered === null ? 'n/a' : ch.metered.median_us / ch.length],
      ['worker', ch.worker.median_us, xf(ch.worker, ch.floor), ch.worker.median_us / ch.length],
      ...(ch.one_hop === undefined
        ? []
        : [
            [`worker, one hop (the hooks share their workers; workers poll ${ch.one_hop.spin_us} µs after a reply, the default)`, ch.one_hop.chain_spin.median_us, xf(ch.one_hop.chain_spin, ch.one_hop.floor), ch.one_hop.chain_spin.median_us / ch.length],
            ['worker, one hop, workers sleep at once (spin_us 0)', ch.one_hop.chain.median_us, xf(ch.one_hop.chain, ch.one_hop.floor), ch.one_hop.chain.median_us / ch.length],
          ]),
    ]),
    '',
  );
  out.push('Throughput with concurrent callers, for each isolation (through `HookRunner`):', '');
  out.push(mdTable(concurrencyHead(r), concurrencyRows(r)), '');
  const targets = r.ratios.filter((x) => x.target !== null && !x.name.startsWith('subprocess'));
  out.push('Targets of the performance issue (medians, same run):', '');
  out.push(mdTable(['comparison', 'value', 'target', ''], targets.map((x) => [x.name, times(x.value), x.target ?? '', x.met === true ? 'met' : 'not met'])), '');
  if (r.blocks.length > 0) {
    out.push(`Building blocks of the hot path (${repoDir('host/contract/fast')}, ${repoDir('host/engine/instance')}, ${repoFile('host/engine/executor/mailbox.ts')}, ${repoFile('host/transports/in-process/fast-invoke.ts')}), each timed interleaved with what it replaced — zod alone, \`structuredClone\`, \`postMessage\` with zod — or with the fallback it keeps (jco's glue, \`direct_call: false\`), in a fresh process, µs:`, '');
    out.push(mdTable(['block', 'case', 'before', 'block', 'speed-up'], blockRows(r)), '');
  }
  out.push('Cold start: the first call in a fresh process (load included), ms:', '');
  out.push(
    mdTable(
      ['guest', 'isolation', 'empty transpile cache', 'warm cache'],
      [...r.cold_start.map((c): Cell[] => [c.label, c.isolation, c.cold.first_call_ms, c.warm.first_call_ms]), ...(r.policies === undefined ? [] : policyLoadRows(r.policies))],
    ),
    '',
  );
  if (r.policies !== undefined) out.push(policiesMarkdown(r.policies), '');
  out.push('Subprocess hooks, µs per call through `HookRunner`, beside a bare spawn of the same command:', '');
  out.push(
    mdTable(
      ['hook', 'median µs', 'bare spawn µs', 'hook ÷ bare'],
      r.subprocess.map((s): Cell[] => [`${s.id} (${mdCommand(s.command)})`, s.hook.median_us, s.bare.median_us, times(s.hook.median_us / s.bare.median_us)]),
    ),
  );
  return `${out.join('\n')}\n`;
}

/**
 * The README's table of where a hook can live, its cost column from the same run as the performance
 * page (between {@link SUMMARY_START} and {@link SUMMARY_END}): the figures a newcomer sees first are
 * never copied by hand.
 */
/** A worker hook's cost: called back to back (its workers awake, the default) and between other work (woken each call). */
function workerCost(r: BenchResult, interleaved: Stats | null): string {
  const awake = r.chain.one_hop?.one_hook_spin;
  const between = interleaved === null ? 'n/a' : duration(interleaved.median_us);
  return awake === undefined ? between : `${duration(awake.median_us)} called back to back, ${between} between other work`;
}

export function summaryTable(r: BenchResult): string {
  const p = r.peer;
  const sub = (id: string): string => {
    const s = r.subprocess.find((x) => x.id === id);
    return s === undefined ? '' : `${duration(s.hook.median_us)} (\`${id}\`)`;
  };
  const cost = (s: Stats | null): string => (s === null ? 'n/a' : duration(s.median_us));
  const rows: string[][] = [
    ['[in-process interceptor](docs/transports.md#in-process-interceptors)', 'TypeScript or JavaScript, in your process', 'none: trusted code, on your thread', cost(p.in_thread.interceptor)],
    ['[subprocess](docs/transports.md#subprocess)', 'any language, over stdin/stdout; Claude Code hook scripts unchanged', 'a process of its own, with your user\'s rights: deadline, capped output, its process group (and PID namespace on Linux) killed after each call', `${[sub('sh'), sub('node')].filter((x) => x !== '').join(', ')}: a process spawn`],
    ['[WebAssembly component](docs/transports.md#webassembly-components)', 'JavaScript, TypeScript, C, Rust, AssemblyScript, WAT', '[a deny-by-default sandbox](docs/sandbox-and-limits.md): no files, environment or network unless granted; deadline, memory cap, state reset between tenants', `${cost(p.in_thread.metered)} on your thread (metered); in a worker thread ${workerCost(r, p.worker.worker)}`],
  ];
  if (r.policies !== undefined) {
    const { cedar, cel } = r.policies;
    rows.push([
      '[a policy: Cedar or CEL](docs/policies.md)',
      'Cedar policies or CEL rules, as data: no code runs',
      'in your process, evaluated by the policy engine; checked at load (schema, types), CEL under a cost limit',
      `Cedar ${cost(cedar.runner)} (${cedar.policies} policies), CEL ${cost(cel.runner)} (${cel.rules} rules)`,
    ]);
  }
  const table = [
    '| a hook can live | written in | isolation | cost per call |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  return `${table.join('\n')}\n\nCost: medians through \`HookRunner.pre\` of one guard policy (the component: the C guard), from the [benchmark](docs/performance.md) of ${r.started_at.slice(0, 10)}, beside a JSON floor — serialising and parsing the request and an answer — of ${duration(p.in_thread.floor.median_us)}.\n`;
}

/** `text` with the block between `start` and `end` replaced by `block` (throws, naming `page`, when the markers are missing). */
export function replaceBlock(text: string, block: string, page = PERFORMANCE_PAGE, start = BENCH_START, end = BENCH_END): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${page} has no ${start} … ${end} block`);
  return `${text.slice(0, from + start.length)}\n${block}${text.slice(to)}`;
}
