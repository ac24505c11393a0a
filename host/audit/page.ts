import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { AuditEvent } from '../contract/audit.js';
import { esc, pageHead, summaryHeader, summarySections } from './html.js';
import { PAGE_SCRIPT, PAGE_SCRIPT_HASH } from './page-script.js';
import { RowCollector, type Row } from './rows.js';
import { AuditSummarizer, type AuditSummary } from './summary.js';
import { TimelineAcc, timelineSvg } from './timeline.js';

/** Options of {@link writeAuditPage}. */
export interface AuditPageOptions {
  /** The page's title (default: "basis-hooks audit"). */
  readonly title?: string;
}

/** Time windows offered by the page's filter, ending at the stream's last event. */
const WINDOWS: ReadonlyArray<[string, number]> = [
  ['the whole stream', 0],
  ['its last 15 minutes', 15 * 60_000],
  ['its last hour', 3_600_000],
  ['its last 6 hours', 6 * 3_600_000],
  ['its last 24 hours', 24 * 3_600_000],
  ['its last 7 days', 7 * 24 * 3_600_000],
];

const DECISION_FILTERS: ReadonlyArray<[string, string]> = [
  ['notable', 'deny, modify, replace or failure'],
  ['all', 'everything, allowed calls too'],
  ['deny', 'deny'],
  ['modify', 'modify'],
  ['replace', 'replace'],
  ['failure', 'a hook failed'],
  ['allow', 'allow'],
];

/** JSON that can sit inside a `<script type="application/json">` block: nothing in it can end the block. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The summarizer that also feeds the investigation rows and the timeline. */
class PageSummarizer extends AuditSummarizer {
  readonly rows: RowCollector;
  readonly timeline: TimelineAcc;

  constructor(source: string, rows: RowCollector, timeline: TimelineAcc) {
    super(source);
    this.rows = rows;
    this.timeline = timeline;
  }

  override event(event: AuditEvent): void {
    super.event(event);
    this.rows.event(event);
    if (event.type === 'chain_decided') {
      this.timeline.add(Date.parse(event.time), event.decision === 'deny' ? 'denied' : event.modified === true ? 'modified' : event.replaced === true ? 'replaced' : 'allow');
    } else if (event.type === 'hook_decided' && event.failure !== undefined) {
      this.timeline.add(Date.parse(event.time), 'failures');
    }
  }
}

function filters(): string {
  const select = (id: string, label: string, first: string): string => `<label for="${id}">${esc(label)}<select id="${id}"><option value="">${esc(first)}</option></select></label>`;
  const windows = WINDOWS.map(([label, ms]) => `<option value="${ms}">${esc(label)}</option>`).join('');
  const decisions = DECISION_FILTERS.map(([value, label]) => `<option value="${value}">${esc(label)}</option>`).join('');
  return `<div class="filters">
${select('f-agent', 'agent', 'every agent')}
${select('f-workspace', 'workspace', 'every workspace')}
${select('f-tool', 'tool', 'every tool')}
${select('f-hook', 'hook', 'every hook')}
<label for="f-decision">decision<select id="f-decision">${decisions}</select></label>
<label for="f-window">time<select id="f-window">${windows}</select></label>
<label for="f-search">search<input id="f-search" type="search" placeholder="reason, call id, name…"></label>
<label for="f-shadow">shadow hooks<input id="f-shadow" type="checkbox" checked></label>
</div>`;
}

function investigation(rows: RowCollector): string {
  const last = Number.isFinite(rows.last) ? new Date(rows.last).toISOString() : 'no events';
  return `<h2>Investigate</h2>
<p class="note">Every deny, modify, replace and hook failure — a shadow hook's too, marked — and every call no hook objected to, newest first (${rows.rows} rows). The time windows end at the stream's last event (${esc(last)}); times are UTC.</p>
<p id="no-script" class="note">The table is filled by the page's own script (nothing is loaded): allow scripts for this file to see it.</p>
<section id="investigate" hidden>
${filters()}
<p id="f-count"></p>
<div class="scroll"><table id="f-table">
<thead><tr><th>time</th><th>agent</th><th>workspace</th><th>tool</th><th>event</th><th>hook</th><th>decision</th><th>reason</th><th>call id</th></tr></thead>
<tbody id="f-rows"></tbody>
</table></div>
<button id="f-more" type="button" hidden>show more</button>
</section>`;
}

/**
 * Write the audit page of a stream read line by line: the summary of `basis-hooks audit` (per hook,
 * with warm and cold latencies apart; per tool; per agent), a timeline of calls by decision, and a
 * table of every deny, modify, replace and failure (and every call no hook objected to) that the
 * page's own script filters by agent, workspace, tool, hook, decision, time window and text.
 *
 * One self-contained file: inline CSS, SVG and one script, a Content-Security-Policy that loads
 * nothing and runs no other script, every text from the stream escaped. Streamed: the table's rows
 * are written as the stream is read (a 100 MB stream is never held), the summary after them (it is
 * drawn before them: the rows are data, not markup). Resolves with the summary.
 */
export async function writeAuditPage(lines: AsyncIterable<string>, source: string, out: Writable, options: AuditPageOptions = {}): Promise<AuditSummary> {
  const title = options.title ?? 'basis-hooks audit';
  const pending: string[] = [];
  const rows = new RowCollector((chunk: readonly Row[]) => void pending.push(`<script type="application/json" class="audit-rows">${jsonForHtml(chunk)}</script>\n`));
  const summarizer = new PageSummarizer(source, rows, new TimelineAcc());
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(pageHead(title, PAGE_SCRIPT_HASH));
  for await (const line of lines) {
    summarizer.line(line);
    while (pending.length > 0) await write(pending.shift() as string);
  }
  rows.flush();
  while (pending.length > 0) await write(pending.shift() as string);
  const summary = summarizer.summary();
  await write(`${summaryHeader(title, summary)}
<h2>Timeline</h2>
${timelineSvg(summarizer.timeline, esc)}
${investigation(rows)}
${summarySections(summary)}
<script type="application/json" id="audit-strings">${jsonForHtml(rows.strings)}</script>
<script type="application/json" id="audit-meta">${jsonForHtml({ last: Number.isFinite(rows.last) ? rows.last : 0, rows: rows.rows })}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`);
  return summary;
}
