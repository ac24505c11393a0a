/**
 * Calls over time by decision, for the audit page: counted while the stream is read, in buckets that
 * grow as the stream's span does (so a stream of any length holds a bounded number of them), and drawn
 * as stacked bars in inline SVG.
 */

/** Bucket widths, each a multiple of the one before: a coarser bucket is a sum of whole finer ones. */
const STEPS_MS = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 10_800, 21_600, 43_200, 86_400, 604_800].map((s) => s * 1000);

/**
 * The width of step `step`: one of {@link STEPS_MS}, then a week doubled as often as it takes — so a
 * stream whose times span years (or one hostile line dated 275760) still makes at most
 * {@link MAX_BARS} bars and {@link MAX_HELD} buckets, never one per empty week.
 */
function widthOf(step: number): number {
  const last = STEPS_MS.length - 1;
  return step <= last ? (STEPS_MS[step] as number) : (STEPS_MS[last] as number) * 2 ** (step - last);
}
/** Most buckets held while reading; past it, the next step is taken. */
const MAX_HELD = 4096;
/** Most bars drawn. */
const MAX_BARS = 120;

/** What a bar counts: chains by their decision (allow split into untouched and rewritten), and hook failures. */
export const SERIES = ['allow', 'modified', 'replaced', 'denied', 'failures'] as const;
export type Series = (typeof SERIES)[number];

/** Counts per bucket. */
export class TimelineAcc {
  #step = 0;
  #buckets = new Map<number, number[]>();
  #from = Number.POSITIVE_INFINITY;
  #to = Number.NEGATIVE_INFINITY;

  /** Count one `series` event at `time` (ms since the epoch; a time that does not parse is not counted). */
  add(time: number, series: Series): void {
    if (!Number.isFinite(time)) return;
    this.#from = Math.min(this.#from, time);
    this.#to = Math.max(this.#to, time);
    const width = widthOf(this.#step);
    const key = Math.floor(time / width);
    let counts = this.#buckets.get(key);
    if (counts === undefined) {
      counts = [0, 0, 0, 0, 0];
      this.#buckets.set(key, counts);
      if (this.#buckets.size > MAX_HELD) this.#coarsen(this.#step + 1);
    }
    counts[SERIES.indexOf(series)] = (counts[SERIES.indexOf(series)] ?? 0) + 1;
  }

  #coarsen(step: number): void {
    const from = widthOf(this.#step);
    const to = widthOf(step);
    const merged = new Map<number, number[]>();
    for (const [key, counts] of this.#buckets) {
      const into = Math.floor((key * from) / to);
      const target = merged.get(into);
      if (target === undefined) merged.set(into, [...counts]);
      else counts.forEach((n, i) => (target[i] = (target[i] ?? 0) + n));
    }
    this.#step = step;
    this.#buckets = merged;
  }

  /** The bars to draw: at most {@link MAX_BARS}, every bucket from the first to the last (empty ones too). */
  bars(): { readonly widthMs: number; readonly bars: ReadonlyArray<{ readonly start: number; readonly counts: readonly number[] }> } {
    if (this.#buckets.size === 0) return { widthMs: widthOf(0), bars: [] };
    while ((this.#to - this.#from) / widthOf(this.#step) > MAX_BARS) this.#coarsen(this.#step + 1);
    const width = widthOf(this.#step);
    const first = Math.floor(this.#from / width);
    const last = Math.floor(this.#to / width);
    const bars = [];
    for (let key = first; key <= last; key++) bars.push({ start: key * width, counts: this.#buckets.get(key) ?? [0, 0, 0, 0, 0] });
    return { widthMs: width, bars };
  }
}

const COLORS: Readonly<Record<Series, string>> = { allow: '#9fb7d8', modified: '#d4a53c', replaced: '#8a5a00', denied: '#b42318', failures: '#6941c6' };
const W = 1040;
const H = 190;
const PAD = { left: 40, right: 10, top: 10, bottom: 34 };

/** `ms` as ISO text, UTC; a bar's start outside what a Date holds (a bucket below -271821) as the number. */
function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}

function duration(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  if (ms < 86_400_000) return `${ms / 3_600_000} h`;
  return `${ms / 86_400_000} d`;
}

/** The timeline as an SVG: stacked bars of chains by decision, hook failures beside them; times in UTC. */
export function timelineSvg(acc: TimelineAcc, esc: (text: string) => string): string {
  const { widthMs, bars } = acc.bars();
  if (bars.length === 0) return '<p class="note">No chain was decided in this stream.</p>';
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const max = Math.max(1, ...bars.map((b) => (b.counts.slice(0, 4) as number[]).reduce((x, y) => x + y, 0)), ...bars.map((b) => b.counts[4] ?? 0));
  const barW = plotW / bars.length;
  const parts: string[] = [];
  bars.forEach((bar, i) => {
    const x = PAD.left + i * barW;
    let y = PAD.top + plotH;
    const label = iso(bar.start).replace('T', ' ').slice(0, 19);
    const chains = SERIES.slice(0, 4).map((s, j) => `${s} ${bar.counts[j] ?? 0}`).join(', ');
    SERIES.slice(0, 4).forEach((series, j) => {
      const n = bar.counts[j] ?? 0;
      if (n === 0) return;
      const h = (n / max) * plotH;
      y -= h;
      parts.push(`<rect class="t-${series}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(1, barW * 0.7 - 0.5).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLORS[series]}"><title>${esc(`${label} UTC (+${duration(widthMs)}): ${chains}`)}</title></rect>`);
    });
    const failures = bar.counts[4] ?? 0;
    if (failures > 0) {
      const h = (failures / max) * plotH;
      parts.push(`<rect class="t-failures" x="${(x + barW * 0.7).toFixed(1)}" y="${(PAD.top + plotH - h).toFixed(1)}" width="${Math.max(1, barW * 0.25).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLORS.failures}"><title>${esc(`${label} UTC: ${failures} hook failure(s)`)}</title></rect>`);
    }
  });
  const ticks: string[] = [];
  const every = Math.max(1, Math.ceil(bars.length / 6));
  bars.forEach((bar, i) => {
    if (i % every !== 0) return;
    const x = PAD.left + i * barW;
    ticks.push(`<text x="${x.toFixed(1)}" y="${H - 18}">${esc(iso(bar.start).replace('T', ' ').slice(5, 16))}</text>`);
  });
  const legend = SERIES.map((s, i) => `<rect x="${PAD.left + i * 110}" y="${H - 11}" width="9" height="9" fill="${COLORS[s]}"/><text x="${PAD.left + i * 110 + 13}" y="${H - 3}">${s === 'failures' ? 'hook failures' : `chains ${s}`}</text>`).join('');
  return `<svg id="timeline" role="img" aria-label="calls over time by decision" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg">
<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" stroke="#8894a0"/>
<text x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end">${max}</text><text x="${PAD.left - 4}" y="${PAD.top + plotH}" text-anchor="end">0</text>
${parts.join('')}
${ticks.join('')}
${legend}
</svg>
<p class="note">Each bar is ${esc(duration(widthMs))} (UTC): chains by decision, stacked; hook failures beside them.</p>`;
}
