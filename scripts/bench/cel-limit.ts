/**
 * What CEL's default cost limit (100,000) buys in time: hostile calls against one rule each — a
 * comprehension over a huge list, a scan of a huge string, a deep equality, and `matches` on the
 * linear-time engine with texts sized to spend just under the limit (the worst a rule can take and
 * still answer) or far over it (stopped before the engine starts). Medians of a few runs each; the
 * figures go in docs/policies.md (the cost limit).
 *
 *   node --import tsx scripts/bench/cel-limit.ts
 */
import { loadavg } from 'node:os';
import { CelFailure, compileExpression, DEFAULT_COST_LIMIT } from '../../host/transports/cel/compile.js';
import { loadCelEngine } from '../../host/transports/cel/engine.js';
import { lastCost } from '../../host/transports/cel/meter.js';
import { compilePattern } from '../../host/transports/cel/regex.js';
import { matchCost } from '../../host/transports/cel/cost.js';

const engine = await loadCelEngine();

/** The longest text `head` + `unit` repeated + `tail` whose match on `pattern` costs at most the limit (the engine runs: a literal every match holds is in `head`). */
function underLimit(pattern: string, head: string, unit: string, tail: string): string {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new Error(compiled.why);
  let n = 1;
  while (matchCost(head.length + n * 2 * unit.length + tail.length, compiled.pattern.weight, true) + 20 < DEFAULT_COST_LIMIT) n *= 2;
  let lo = n;
  let hi = n * 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (matchCost(head.length + mid * unit.length + tail.length, compiled.pattern.weight, true) + 20 < DEFAULT_COST_LIMIT) lo = mid;
    else hi = mid;
  }
  return head + unit.repeat(lo) + tail;
}

const cases: Array<{ label: string; when: string; input: unknown }> = [
  { label: 'exists over 200,000 elements (stopped)', when: "input.items.exists(i, i == 'needle')", input: { items: Array.from({ length: 200_000 }, (_, i) => `item-${i}`) } },
  { label: 'contains on a 2 MB string (stopped)', when: "input.text.contains('needle')", input: { text: 'a'.repeat(2_000_000) } },
  { label: 'equality of a 400,000-element list (stopped)', when: "input.items == ['x']", input: { items: Array.from({ length: 400_000 }, () => 'ab') } },
  { label: "matches '^(a+)+$' on 1 MB (stopped before the engine)", when: "input.text.matches('^(a+)+$')", input: { text: `${'a'.repeat(1_000_000)}b` } },
  { label: "matches '^(a+)+$', text just under the limit", when: "input.text.matches('^(a+)+$')", input: { text: underLimit('^(a+)+$', '', 'a', 'b') } },
  { label: "matches '\\\\s+error', text just under the limit", when: "input.text.matches('\\\\s+error')", input: { text: underLimit('\\s+error', 'xerror', ' ', 'x') } },
  { label: "matches '(\\\\S+\\\\s+){4}z', text just under the limit", when: "input.text.matches('(\\\\S+\\\\s+){4}z')", input: { text: underLimit('(\\S+\\s+){4}z', 'z', 'ab ', 'y') } },
  { label: "matches '^\\\\s*$', text just under the limit", when: "input.text.matches('^\\\\s*$')", input: { text: underLimit('^\\s*$', '', ' ', 'x') } },
];

const vars = (input: unknown) => ({ tool_name: 't', input, agent_id: 'a', workspace: '/w', event: 'pre_tool_use' });
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; default cost limit ${DEFAULT_COST_LIMIT}`);
for (const { label, when, input } of cases) {
  const rule = compileExpression(engine, when, { where: 'bench', event: 'pre_tool_use' });
  const variables = vars(input);
  const times: number[] = [];
  let outcome = '';
  for (let run = 0; run < 7; run++) {
    const started = process.hrtime.bigint();
    const value = rule.evaluate(variables);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    outcome = value instanceof CelFailure ? value.failure.code : String(value);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} ${outcome.padEnd(8)} cost ${String(Math.round(lastCost())).padStart(7)}  median ${(times[3] ?? 0).toFixed(2)} ms  max ${(times[6] ?? 0).toFixed(2)} ms`);
}
