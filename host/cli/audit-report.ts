import { formatMs } from '../audit/stats.js';
import type { AuditSummary } from '../audit/summary.js';
import { columns } from './columns.js';

/** `basis-hooks audit FILE` for people: the stream's span, then the per-hook and per-tool tables. */
export function formatAuditSummary(summary: AuditSummary): string {
  const out: string[] = [];
  const span = summary.from === undefined ? 'no events' : `${summary.from} → ${summary.to ?? summary.from}`;
  out.push(`${summary.source}: ${summary.events} events, ${summary.chains} chains, ${span}\n`);
  if (summary.skipped_count > 0) {
    out.push(`${summary.skipped_count} line(s) not read:\n${summary.skipped.map((s) => `  line ${s.line}: ${s.problem}\n`).join('')}`);
    if (summary.skipped_count > summary.skipped.length) out.push(`  … ${summary.skipped_count - summary.skipped.length} more\n`);
  }
  out.push('\nhooks (decisions are what took effect: a failed hook counts under its policy; a shadow hook\'s are what it would have done)\n');
  if (summary.hooks.length === 0) out.push('  none\n');
  else {
    const header = ['HOOK', 'MODE', 'CALLS', 'ALLOW', 'DENY', 'MODIFY', 'REPLACE', 'P50', 'P99', 'WARM P50', 'COLD P50 (N)', 'FAILURES'];
    const rows = summary.hooks.map((h) => [
      h.hook,
      h.mode,
      String(h.calls),
      String(h.decisions.allow),
      String(h.decisions.deny),
      String(h.decisions.modify),
      String(h.decisions.replace),
      formatMs(h.p50_ms),
      formatMs(h.p99_ms),
      formatMs(h.warm.p50_ms),
      h.cold.calls === 0 ? '—' : `${formatMs(h.cold.p50_ms)} (${h.cold.calls})`,
      Object.entries(h.failures).map(([code, n]) => `${code} ${String(n)}`).join(', ') || '—',
    ]);
    out.push(indent(columns([header, ...rows], new Set([2, 3, 4, 5, 6, 7, 8, 9, 10]))));
  }
  out.push('\ntools\n');
  if (summary.tools.length === 0) out.push('  none\n');
  else {
    const header = ['TOOL', 'CHAINS', 'DENIED', 'INPUT REWRITTEN', 'OUTPUT REPLACED'];
    const rows = summary.tools.map((t) => [t.tool, String(t.chains), String(t.denied), String(t.modified), String(t.replaced)]);
    out.push(indent(columns([header, ...rows], new Set([1, 2, 3, 4]))));
  }
  out.push('\nagents\n');
  if (summary.agents.length === 0) out.push('  none\n');
  else {
    const header = ['AGENT', 'CHAINS', 'DENIED', 'INPUT REWRITTEN', 'OUTPUT REPLACED', 'HOOK FAILURES', 'TOOLS'];
    const rows = summary.agents.map((a) => [a.agent, String(a.chains), String(a.denied), String(a.modified), String(a.replaced), String(a.failures), String(a.tools)]);
    out.push(indent(columns([header, ...rows], new Set([1, 2, 3, 4, 5, 6]))));
  }
  return out.join('');
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}
