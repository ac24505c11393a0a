/**
 * The audit page's timeline holds against the stream it reads: whatever times the lines carry (years
 * apart, the last day a Date holds, one hostile line among many), it draws at most 120 bars, keeps at
 * most 4,096 buckets while reading, never loses a count, and renders every label.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERIES, TimelineAcc, timelineSvg } from '../../host/audit/timeline.js';

const DATE_MAX = 8.64e15;
const esc = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function total(acc: TimelineAcc): number {
  return acc.bars().bars.reduce((sum, bar) => sum + bar.counts.reduce((a, b) => a + b, 0), 0);
}

describe('timeline', () => {
  it('a normal day: one bar per bucket, every count kept', () => {
    const acc = new TimelineAcc();
    const start = Date.parse('2026-12-03T10:00:00Z');
    for (let i = 0; i < 600; i++) acc.add(start + i * 1000, SERIES[i % SERIES.length] as (typeof SERIES)[number]);
    const { bars, widthMs } = acc.bars();
    expect(bars.length).toBeLessThanOrEqual(120);
    expect(widthMs).toBe(5000);
    expect(total(acc)).toBe(600);
  });

  it('one line dated at the end of what a Date holds, among a day of calls: bounded bars, a label for each', () => {
    const acc = new TimelineAcc();
    const start = Date.parse('2026-12-03T10:00:00Z');
    for (let i = 0; i < 1000; i++) acc.add(start + i * 60_000, 'allow');
    acc.add(DATE_MAX, 'denied');
    acc.add(-DATE_MAX, 'failures');
    const { bars } = acc.bars();
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.length).toBeLessThanOrEqual(121);
    expect(total(acc)).toBe(1002);
    const svg = timelineSvg(acc, esc);
    expect(svg).toContain('<svg id="timeline"');
    expect(svg).not.toContain('Invalid');
  });

  it('any times in what a Date holds: at most 121 bars, no count lost (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -DATE_MAX, max: DATE_MAX }), fc.constantFrom(...SERIES)), { minLength: 1, maxLength: 300 }), (events) => {
        const acc = new TimelineAcc();
        for (const [time, series] of events) acc.add(time, series);
        const { bars } = acc.bars();
        expect(bars.length).toBeLessThanOrEqual(121);
        expect(total(acc)).toBe(events.length);
        expect(() => timelineSvg(acc, esc)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('times that are not finite are not counted', () => {
    const acc = new TimelineAcc();
    acc.add(Number.NaN, 'allow');
    acc.add(Number.POSITIVE_INFINITY, 'allow');
    expect(acc.bars().bars).toEqual([]);
  });
});
