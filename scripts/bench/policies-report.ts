/**
 * The policy hooks' part of the benchmark report (scripts/bench/policies.ts measures it): a table of
 * the cases beside their baselines, the issue's targets, and the load rows of the cold-start table.
 */
import type { PoliciesResult, Stats } from './result.js';

type Cell = string | number;

function fmt(x: number): string {
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  if (Math.abs(x) >= 100) return String(Math.round(x));
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function ratio(a: Stats, b: Stats): number {
  return a.median_us / b.median_us;
}

function times(x: number): string {
  return `${x >= 10 ? Math.round(x) : x.toFixed(2)}×`;
}

/** The targets of the policy issue (medians, same run). */
export function policyTargets(p: PoliciesResult): Array<{ name: string; value: number; target: number }> {
  return [
    { name: `Cedar, ${p.cedar.policies} policies: HookRunner.pre ÷ the package's statefulIsAuthorized (same request)`, value: ratio(p.cedar.runner, p.cedar.package), target: 1.2 },
    { name: 'Cedar with its decision cache, a repeated request: HookRunner.pre ÷ JSON floor', value: ratio(p.cedar.cache_repeat, p.cedar.cache_floor), target: 3 },
    { name: `CEL, ${p.cel.rules} rules: HookRunner.pre ÷ JSON floor`, value: ratio(p.cel.runner, p.cel.floor), target: 1.5 },
  ];
}

/** The rows of the policy cases: name, median µs, p99 µs, what it is compared with, ratio. */
export function policyRows(p: PoliciesResult): Cell[][] {
  const c = p.cedar;
  const l = p.cel;
  return [
    [`Cedar ${p.engines.cedar}, ${c.policies} policies, through HookRunner.pre`, c.runner.median_us, c.runner.p99_us, `${times(ratio(c.runner, c.package))} the package alone`],
    [`the package alone: statefulIsAuthorized, same request prebuilt`, c.package.median_us, c.package.p99_us, ''],
    [`Cedar with decision_cache, a repeated request, through HookRunner.pre`, c.cache_repeat.median_us, c.cache_repeat.p99_us, `${times(ratio(c.cache_repeat, c.cache_floor))} JSON floor`],
    [`CEL (@marcbachmann/cel-js ${p.engines.cel}), ${l.rules} rules, through HookRunner.pre`, l.runner.median_us, l.runner.p99_us, `${times(ratio(l.runner, l.floor))} JSON floor`],
    [`the same ${l.rules} rules, the library alone (parsed once, evaluated in turn)`, l.library.median_us, l.library.p99_us, `${times(ratio(l.library, l.library_floor))} JSON floor`],
    [`JSON floor (beside the CEL cases)`, l.floor.median_us, l.floor.p99_us, ''],
    [`20 rules both CEL packages run: @marcbachmann/cel-js ${p.engines.cel}`, l.comparison.marcbachmann.median_us, l.comparison.marcbachmann.p99_us, ''],
    [`the same 20 rules: cel-js ${p.engines.cel_js}`, l.comparison.cel_js.median_us, l.comparison.cel_js.p99_us, `${times(ratio(l.comparison.cel_js, l.comparison.marcbachmann))} @marcbachmann/cel-js`],
  ];
}

/** The load rows of the cold-start table: a fresh process's first load and call, then a second load in it. */
export function policyLoadRows(p: PoliciesResult): Cell[][] {
  return p.load.map((row) => [row.label, 'in-process (policy)', row.cold_ms, `${fmt(row.warm_ms)} (second load in the process)`]);
}

function mdTable(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const row = (r: readonly Cell[]): string => `| ${r.map((c) => (typeof c === 'number' ? fmt(c) : c)).join(' | ')} |`;
  return [row(head), `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map(row)].join('\n');
}

/** The policy section of docs/performance.md's generated block. */
export function policiesMarkdown(p: PoliciesResult): string {
  const out: string[] = [];
  out.push(
    'Policy hooks ([docs/policies.md](policies.md)), one caller, medians interleaved sample by sample with their baselines: a 50-policy Cedar set through `HookRunner.pre` beside the Cedar package\'s own `statefulIsAuthorized` on the same request built once; the decision cache on a repeated request beside the JSON floor; a 20-rule CEL hook (no rule matches, so all are asked) beside the JSON floor and the library alone:',
    '',
  );
  out.push(mdTable(['case', 'median µs', 'p99 µs', 'compared'], policyRows(p)), '');
  out.push('Targets of the policy issue (medians, same run):', '');
  out.push(mdTable(['comparison', 'value', 'target', ''], policyTargets(p).map((t) => [t.name, times(t.value), `<= ${t.target}`, t.value <= t.target ? 'met' : 'not met'])), '');
  return out.join('\n');
}

/** The policy section of the text report. */
export function policiesText(p: PoliciesResult): string {
  const rows = policyRows(p).map((r) => `  ${String(r[0]).padEnd(78)} ${fmt(Number(r[1])).padStart(9)} µs  p99 ${fmt(Number(r[2])).padStart(9)}  ${r[3]}`);
  const targets = policyTargets(p).map((t) => `  ${t.name.padEnd(100)} ${times(t.value).padStart(6)}  (<= ${t.target}: ${t.value <= t.target ? 'met' : 'not met'})`);
  return ['Policy hooks (Cedar, CEL), medians interleaved with their baselines', ...rows, '', 'Targets of the policy issue', ...targets].join('\n');
}
