import type { HookCall } from '../contract/call.js';
import type { JsonValue } from '../contract/json.js';
import type { Outcome, TrailEntry } from '../contract/outcome.js';

/** The decision a call ended with, as a person names it: a rewrite is its own kind, not just "allow". */
export function decisionKind(outcome: Outcome): 'allow' | 'deny' | 'modify' | 'replace' {
  if (outcome.decision === 'deny') return 'deny';
  if (outcome.event === 'pre_tool_use') return outcome.modified ? 'modify' : 'allow';
  return outcome.replaced ? 'replace' : 'allow';
}

/**
 * Render outcomes as a table for people (`basis-hooks run --table`): one row per call — id, tool,
 * event, decision and what it amounts to — and under it one row per hook of its trail, with the
 * failure code and policy of a hook that failed. Long values are cut to keep one row per line.
 */
export function formatTable(rows: readonly { readonly call: HookCall; readonly outcome: Outcome }[]): string {
  const header = ['CALL', 'TOOL', 'EVENT', 'DECISION', 'DETAIL'];
  const callRows = rows.map(({ call, outcome }) => [call.tool_call_id, call.tool_name, call.event, decisionKind(outcome), detail(outcome)]);
  const widths = header.map((title, column) => Math.max(title.length, ...callRows.map((row) => (row[column] ?? '').length)));
  const hookWidth = Math.max(4, ...rows.flatMap(({ outcome }) => outcome.trail.map((entry) => entry.hook.length)));
  const out: string[] = [formatRow(header, widths)];
  rows.forEach(({ outcome }, index) => {
    out.push(formatRow(callRows[index] ?? [], widths));
    if (outcome.trail.length === 0) out.push('    (no hook matched)');
    for (const entry of outcome.trail) out.push(`    ↳ ${entry.hook.padEnd(hookWidth)}  ${trailDetail(entry)}`);
  });
  return `${out.join('\n')}\n`;
}

function formatRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
    .join('  ')
    .trimEnd();
}

function detail(outcome: Outcome): string {
  if (outcome.event === 'pre_tool_use') {
    if (outcome.decision === 'deny') return cut(outcome.reason);
    return outcome.modified ? `input → ${cut(show(outcome.input))}` : '';
  }
  if (outcome.decision === 'deny') return cut(show(outcome.output));
  return outcome.replaced ? `output → ${cut(show(outcome.output))}${outcome.is_error ? ' (error)' : ''}` : '';
}

function trailDetail(entry: TrailEntry): string {
  const parts = [entry.decision.padEnd(7)];
  if (entry.shadow === true) parts.push('(shadow: not enforced)');
  if (entry.failure !== undefined) {
    parts.push(`${entry.failure.code} (on_failure ${entry.policy ?? 'deny'}): ${cut(entry.failure.message, 60)}`);
  } else if (entry.reason !== undefined) {
    parts.push(cut(entry.reason, 60));
  }
  parts.push(`[${entry.ms.toFixed(1)} ms]`);
  return parts.join('  ');
}

function show(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function cut(text: string, max = 70): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
