import type { AgentSummary, AuditSummary, Histogram, HookSummary, LatencySplit } from './summary.js';
import { formatMs } from './stats.js';

/*
 * One self-contained page: inline CSS and inline SVG, no external resource of any kind — and a
 * Content-Security-Policy that forbids loading one, so the page shows the same thing offline, in a
 * mail attachment or behind an air gap. Every text from the stream (hook, tool and agent names,
 * reasons, failure codes) is escaped: hooks are third-party code and what they say is not trusted.
 * This module renders the summary's sections; page.ts adds the investigation table and its script.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML (element content and quoted attribute values). */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export const STYLE = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5b6670; --line: #d8dee4; --bar: #3b6fb6; --deny: #b42318; --rewrite: #8a5a00; --shadow: #6941c6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: right; padding: .3rem .6rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { font-weight: 600; color: var(--muted); font-size: .85rem; }
th:first-child, td:first-child { text-align: left; }
td.name { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
td.failures { text-align: left; white-space: normal; }
.zero { color: #aab3bb; }
.deny { color: var(--deny); font-weight: 600; }
.rewrite { color: var(--rewrite); font-weight: 600; }
.tag { display: inline-block; font-size: .75rem; padding: 0 .35rem; border-radius: .6rem; background: #ede7fb; color: var(--shadow); margin-left: .35rem; }
.hists { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 1rem; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: .6rem; }
figcaption { font-weight: 600; margin-bottom: .3rem; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
svg text { font: 10px system-ui, sans-serif; fill: var(--muted); }
svg rect.bar { fill: var(--bar); }
.note { color: var(--muted); font-size: .85rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0; }
.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
.filters select, .filters input[type=search] { font: inherit; max-width: 16rem; }
.scroll { overflow-x: auto; }
#f-table th, #f-table td { text-align: left; white-space: nowrap; }
#f-table td.reason { white-space: normal; min-width: 18rem; }
#f-count { font-weight: 600; }
svg#timeline text { font: 10px system-ui, sans-serif; fill: var(--muted); }
`;

/** Options of {@link renderAuditHtml}. */
export interface AuditHtmlOptions {
  /** The page's title (default: "basis-hooks audit"). */
  readonly title?: string;
}

/** The page's head, up to and including `<body>`; `script` is the CSP source of the one script allowed, if any. */
export function pageHead(title: string, script?: string): string {
  const scripts = script === undefined ? '' : `; script-src ${script}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:${scripts}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
`;
}

/** The title, the stream's span and what was not read. */
export function summaryHeader(title: string, summary: AuditSummary): string {
  const span = summary.from === undefined ? 'no events' : `${esc(summary.from)} → ${esc(summary.to ?? summary.from)}`;
  const skipped =
    summary.skipped_count === 0
      ? ''
      : `<p class="note">${summary.skipped_count} line(s) not read: ${summary.skipped.slice(0, 3).map((s) => `line ${s.line}: ${esc(s.problem)}`).join('; ')}${summary.skipped_count > 3 ? '; …' : ''}</p>`;
  return `<h1>${esc(title)}</h1>
<p class="meta">${esc(summary.source)} · ${summary.events} events · ${summary.chains} chains · ${span}</p>
${skipped}`;
}

/** The per-hook, per-tool and per-agent tables and the latency histograms. */
export function summarySections(summary: AuditSummary): string {
  return `<h2>Hooks</h2>
<p class="note">Warm calls are what a running host pays; a hook's cold start is its first call in a runner (a process's first event, a component's first instance).</p>
${hooksTable(summary.hooks)}
<h2>Tools</h2>
${toolsTable(summary)}
<h2>Agents</h2>
${agentsTable(summary.agents)}
<h2>Latency per hook</h2>
<p class="note">Calls per latency bin (4 bins per decade, logarithmic). The dashed line is the p50, the dotted one the p99.</p>
<div class="hists">
${summary.hooks.map(histogramFigure).join('\n')}
</div>`;
}

/**
 * The summary as one self-contained HTML page, without a script: the per-hook, per-tool and per-agent
 * tables of `basis-hooks audit`, and a latency histogram per hook (inline SVG, logarithmic bins).
 * `basis-hooks audit --html` writes the fuller page of {@link writeAuditPage}.
 */
export function renderAuditHtml(summary: AuditSummary, options: AuditHtmlOptions = {}): string {
  const title = options.title ?? 'basis-hooks audit';
  return `${pageHead(title)}${summaryHeader(title, summary)}
${summarySections(summary)}
</body>
</html>
`;
}

function num(n: number, cls = ''): string {
  if (n === 0) return '<td class="zero">0</td>';
  return cls === '' ? `<td>${n}</td>` : `<td class="${cls}">${n}</td>`;
}

export function hooksTable(hooks: readonly HookSummary[]): string {
  if (hooks.length === 0) return '<p class="note">No hook decided anything in this stream.</p>';
  const rows = hooks.map((h) => {
    const failures = Object.entries(h.failures)
      .map(([code, count]) => `${esc(code)} ${String(count)}`)
      .join(', ');
    const tag = h.mode === 'enforce' ? '' : `<span class="tag">${h.mode}</span>`;
    return `<tr data-hook="${esc(h.hook)}"><td class="name">${esc(h.hook)}${tag}</td>${num(h.calls)}${num(h.decisions.allow)}${num(h.decisions.deny, 'deny')}${num(h.decisions.modify, 'rewrite')}${num(h.decisions.replace, 'rewrite')}<td class="failures">${failures === '' ? '<span class="zero">none</span>' : failures}</td><td>${formatMs(h.p50_ms)}</td><td>${formatMs(h.p99_ms)}</td>${latency(h.warm, 'warm')}${latency(h.cold, 'cold')}</tr>`;
  });
  return `<table id="hooks">
<thead><tr><th>hook</th><th>calls</th><th>allow</th><th>deny</th><th>modify</th><th>replace</th><th>failures</th><th>p50</th><th>p99</th><th>warm p50</th><th>warm p99</th><th>cold p50</th><th>cold p99</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

/** p50 and p99 of some calls, with how many in the title. */
function latency(split: LatencySplit, kind: 'warm' | 'cold'): string {
  const title = `title="${split.calls} ${kind} call${split.calls === 1 ? '' : 's'}"`;
  return `<td class="${kind}" ${title}>${formatMs(split.p50_ms)}</td><td class="${kind}" ${title}>${formatMs(split.p99_ms)}</td>`;
}

export function agentsTable(agents: readonly AgentSummary[]): string {
  if (agents.length === 0) return '<p class="note">No chain was decided in this stream.</p>';
  const rows = agents.map(
    (a) => `<tr data-agent="${esc(a.agent)}"><td class="name">${esc(a.agent)}</td>${num(a.chains)}${num(a.denied, 'deny')}${num(a.modified, 'rewrite')}${num(a.replaced, 'rewrite')}${num(a.failures, 'deny')}${num(a.tools)}${num(a.workspaces)}</tr>`,
  );
  return `<table id="agents">
<thead><tr><th>agent</th><th>chains</th><th>denied</th><th>input rewritten</th><th>output replaced</th><th>hook failures</th><th>tools</th><th>workspaces</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

export function toolsTable(summary: AuditSummary): string {
  if (summary.tools.length === 0) return '<p class="note">No chain was decided in this stream.</p>';
  const rows = summary.tools.map(
    (t) => `<tr data-tool="${esc(t.tool)}"><td class="name">${esc(t.tool)}</td>${num(t.chains)}${num(t.denied, 'deny')}${num(t.modified, 'rewrite')}${num(t.replaced, 'rewrite')}</tr>`,
  );
  return `<table id="tools">
<thead><tr><th>tool</th><th>chains</th><th>denied</th><th>input rewritten</th><th>output replaced</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

const W = 320;
const H = 150;
const PAD = { left: 34, right: 8, top: 10, bottom: 28 };

export function histogramFigure(hook: HookSummary): string {
  return `<figure class="hist" data-hook="${esc(hook.hook)}"><figcaption>${esc(hook.hook)}${hook.mode === 'enforce' ? '' : ` <span class="tag">${hook.mode}</span>`}</figcaption>
${histogramSvg(hook.histogram, hook.p50_ms, hook.p99_ms, hook.hook)}
<div class="note">${hook.calls} call${hook.calls === 1 ? '' : 's'} · p50 ${formatMs(hook.p50_ms)} · p99 ${formatMs(hook.p99_ms)} · max ${formatMs(hook.max_ms)}</div></figure>`;
}

function histogramSvg(h: Histogram, p50: number | undefined, p99: number | undefined, label: string): string {
  const bins = h.counts.length;
  if (bins === 0) return '<p class="note">no calls</p>';
  const max = Math.max(...h.counts);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const barW = plotW / bins;
  const parts: string[] = [];
  h.counts.forEach((count, i) => {
    const lo = h.edges_ms[i] ?? 0;
    const hi = h.edges_ms[i + 1] ?? Infinity;
    const barH = count === 0 ? 0 : Math.max(1, (count / max) * plotH);
    const x = PAD.left + i * barW;
    const y = PAD.top + plotH - barH;
    parts.push(
      `<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(1, barW - 1).toFixed(1)}" height="${barH.toFixed(1)}"><title>${esc(`${formatMs(lo)} – ${Number.isFinite(hi) ? formatMs(hi) : '∞'}: ${count} calls`)}</title></rect>`,
    );
  });
  // x labels: the edges at whole decades first, then the first and last edge where there is room.
  const candidates = h.edges_ms
    .map((edge, i) => ({ edge, i, decade: edge > 0 && Math.abs(Math.log10(edge) - Math.round(Math.log10(edge))) < 1e-6 }))
    .filter(({ edge, i, decade }) => Number.isFinite(edge) && (decade || i === 0 || i === bins))
    .sort((a, b) => Number(b.decade) - Number(a.decade));
  const placed: number[] = [];
  const labels: string[] = [];
  for (const { edge, i } of candidates) {
    const x = PAD.left + i * barW;
    if (placed.some((p) => Math.abs(p - x) < 44)) continue;
    placed.push(x);
    const anchor = i === 0 ? 'start' : i === bins ? 'end' : 'middle';
    labels.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH + 4}" stroke="#8894a0"/><text x="${x.toFixed(1)}" y="${H - 12}" text-anchor="${anchor}">${esc(formatMs(edge))}</text>`);
  }
  const marker = (ms: number | undefined, dash: string, name: string): string => {
    if (ms === undefined) return '';
    const i = h.edges_ms.findIndex((edge, j) => ms >= edge && ms < (h.edges_ms[j + 1] ?? Infinity));
    if (i < 0) return '';
    const x = PAD.left + (i + 0.5) * barW;
    return `<line class="${name}" x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#1d232a" stroke-width="1" stroke-dasharray="${dash}"><title>${name} ${esc(formatMs(ms))}</title></line>`;
  };
  return `<svg class="histogram" role="img" aria-label="${esc(`latency histogram of ${label}`)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg">
<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" stroke="#8894a0"/>
<text x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end">${max}</text><text x="${PAD.left - 4}" y="${PAD.top + plotH}" text-anchor="end">0</text>
${parts.join('')}
${marker(p50, '4 3', 'p50')}${marker(p99, '1 2', 'p99')}
${labels.join('')}
<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 1}" text-anchor="middle">latency</text>
</svg>`;
}
