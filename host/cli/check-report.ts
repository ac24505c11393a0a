import { formatMs } from '../audit/stats.js';
import type { ArmCaseResult, ArmReport } from '../config/arm.js';
import type { CheckReport, HookCheck } from '../config/check.js';
import type { JsonValue } from '../contract/json.js';
import { canonicalJson, diffLines } from '../cases/diff.js';
import { columns } from './columns.js';

const MAX_DIFF_LINES = 40;

/** `basis-hooks check` without cases: one line per hook (a failure's code and message on it), with its digest. */
export function formatCheck(report: CheckReport, configFile: string): string {
  if (report.hooks.length === 0) return 'no hooks declared\n';
  // A message of several lines (a policy's diagnostics, one per line) has its first in the table, the rest under it.
  const [firsts, rests] = [0, 1].map((part) => report.hooks.map((hook) => (hook.ok ? [] : hook.message.split('\n')).slice(part === 0 ? 0 : 1, part === 0 ? 1 : undefined)));
  const rows = report.hooks.map((hook, i) => [hook.ok ? 'ok' : 'FAIL', hook.name, `(${hook.kind})`, hook.ok ? pinText(hook) : `${hook.code}: ${firsts?.[i]?.[0] ?? ''}`]);
  const lines = columns(rows).split('\n');
  const failed = report.hooks.filter((hook) => !hook.ok).length;
  const width = Math.max(0, ...report.hooks.map((hook) => hook.name.length));
  const body = report.hooks
    .map(
      (hook, i) =>
        `${lines[i] ?? ''}\n${(rests?.[i] ?? []).map((line) => `      ${line.trimStart()}\n`).join('')}${hook.ok ? '' : `      ${pinText(hook)}\n`}` +
        (hook.warnings ?? []).map((warning) => `warn  ${hook.name.padEnd(width)}  ${warning}\n`).join(''),
    )
    .join('');
  return failed === 0 ? body : `${body}${configFile}: ${failed} of ${report.hooks.length} hook(s) cannot start\n`;
}

function pinText(hook: HookCheck): string {
  if ('unpinnable' in hook) return `${hook.pinned ? 'pinned, but ' : ''}not pinnable: ${hook.unpinnable}`;
  const uncovered = hook.uncovered.length === 0 ? '' : `; not covered: ${hook.uncovered.join(', ')}`;
  return `sha256 ${hook.sha256}${hook.pinned ? ' (pinned)' : ''}, covers ${hook.files.join(', ')}${uncovered}`;
}

/** `basis-hooks check --cases`: the per-hook table, each case, the problems, the verdict. */
export function formatArm(report: ArmReport, source: string): string {
  const out: string[] = [];
  const header = ['HOOK', 'EVENT', 'MODE', 'LOADS', 'CASES', 'ANSWERED', 'FIRST CALL', 'WARM p50', 'SHA256'];
  const rows = report.hooks.map((h) => [
    h.name,
    h.event === 'pre_tool_use' ? 'pre' : 'post',
    h.mode,
    h.loaded ? `yes ${h.load_ms === undefined ? '' : formatMs(h.load_ms)}`.trim() : 'NO',
    h.cases.passed + h.cases.failed === 0 ? '—' : `${h.cases.passed}/${h.cases.passed + h.cases.failed}`,
    `${h.answered}/${h.calls}`,
    formatMs(h.first_call_ms),
    formatMs(h.warm_ms),
    h.sha256 === undefined ? '—' : `${h.sha256}${h.pinned === true ? ' pinned' : ''}`,
  ]);
  out.push(columns([header, ...rows], new Set([4, 5, 6, 7])));
  if (report.cases.length > 0) {
    out.push(`\ncanaries (${report.passes} pass${report.passes === 1 ? '' : 'es'} each):\n`);
    for (const result of report.cases) out.push(formatCase(result, source));
  }
  const problems = report.hooks.flatMap((h) => h.problems.map((p) => `  ${h.name}: ${p}\n`));
  if (problems.length > 0) out.push(`\nproblems:\n${problems.join('')}`);
  const failedCases = report.cases.filter((c) => c.status === 'fail').length;
  const bad = report.hooks.filter((h) => !h.ok).length;
  out.push(
    report.ok
      ? `\nok: ${report.hooks.length} hook(s) load and answer; ${report.cases.length} canar${report.cases.length === 1 ? 'y' : 'ies'} passed\n`
      : `\nFAIL: ${bad} hook(s) not ready, ${failedCases} canar${failedCases === 1 ? 'y' : 'ies'} failed\n`,
  );
  return out.join('');
}

function formatCase(result: ArmCaseResult, source: string): string {
  const about = result.hook === undefined ? 'chain' : result.hook;
  if (result.status === 'pass') return `  ok    ${result.name}  (${about}, ${formatMs(result.ms)})\n`;
  const where = result.line === undefined ? source : `${source}:${result.line}`;
  const diff = diffLines(canonicalJson(result.expect as JsonValue), canonicalJson(result.actual));
  const shown = diff.slice(0, MAX_DIFF_LINES).map((line) => `        ${line.op} ${line.text}\n`);
  const more = diff.length > MAX_DIFF_LINES ? [`        … ${diff.length - MAX_DIFF_LINES} more lines (--json shows everything)\n`] : [];
  const note = result.note === undefined ? '' : `        (${result.note})\n`;
  return `  FAIL  ${result.name}  (${where}, ${about} at ${result.event})\n        - expected\n        + actual\n${shown.join('')}${more.join('')}${note}`;
}
