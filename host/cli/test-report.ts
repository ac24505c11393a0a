import type { JsonValue } from '../contract/json.js';
import { canonicalJson, diffLines } from '../cases/diff.js';
import type { CaseResult, TestReport } from '../kit/cases/run.js';

/** Most diff lines shown for one failing case; the rest is summarised (use --json for everything). */
const MAX_DIFF_LINES = 60;

/** Most lines of a hook's stdout or stderr shown under one case (--json has all the trail kept). */
const MAX_LOG_LINES = 20;

/** What the hook wrote during the case, indented under it: `stdout |` / `stderr |` lines. */
function formatLogs(result: { readonly stdout?: string; readonly stderr?: string }): string {
  let out = '';
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = result[stream];
    if (text === undefined || text === '') continue;
    const lines = text.replace(/\n$/, '').split('\n');
    const shown = lines.slice(0, MAX_LOG_LINES).map((line) => `        ${stream} | ${line}\n`);
    out += shown.join('') + (lines.length > MAX_LOG_LINES ? `        ${stream} | … ${lines.length - MAX_LOG_LINES} more lines\n` : '');
  }
  return out;
}

/** One result as people read it: `ok`/`FAIL`/`skip` and the name; a failure gets the diff under it; what the hook logged follows. */
export function formatResult(result: CaseResult, source: string): string {
  const where = `${source}:${result.line}`;
  switch (result.status) {
    case 'pass':
      return `  ok    ${result.name}  (${result.ms.toFixed(1)} ms)\n${formatLogs(result)}`;
    case 'skip':
      return `  skip  ${result.name}  (${result.reason})\n`;
    case 'error':
      return `  FAIL  ${result.name}  (${where})\n        ${result.reason}\n`;
    case 'fail': {
      const expected = canonicalJson(result.expect as JsonValue);
      const actual = canonicalJson(result.actual);
      const diff = diffLines(expected, actual);
      const shown = diff.slice(0, MAX_DIFF_LINES).map((line) => `        ${line.op} ${line.text}\n`);
      const more = diff.length > MAX_DIFF_LINES ? [`        … ${diff.length - MAX_DIFF_LINES} more lines (--json shows everything)\n`] : [];
      const chain = result.chain;
      const note = result.ran ? '' : chain === undefined ? '        (the hook did not run: its "tools" do not match this call)\n' : '        (no hook of the chain ran: none is at this event with "tools" matching this call)\n';
      const under = chain === undefined ? result.hook : `the chain (${chain.join(', ')})`;
      return `  FAIL  ${result.name}  (${where}, ${under} at ${result.event})\n        - expected\n        + actual\n${shown.join('')}${more.join('')}${note}${formatLogs(result)}`;
    }
  }
}

/**
 * The closing lines: counts, why the run failed when no case failed (none ran), and how many cases
 * were skipped for each reason (another hook's, another event's), so a skip is never silent.
 */
export function formatSummary(report: TestReport): string {
  const counts = `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
  const reasons = new Map<string, number>();
  for (const result of report.results) {
    if (result.status === 'skip') reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1);
  }
  // Above the counts, so the last line stays the verdict.
  const skips = [...reasons].map(([reason, n]) => `skipped ${n}: ${reason}\n`).join('');
  if (report.passed + report.failed === 0) return `\n${skips}${counts}: no case ran\n`;
  return `\n${skips}${counts}\n`;
}
