/**
 * The comparisons the performance issue asks for, computed from the measured figures: each hook
 * against the baseline it is built on, with the target where it states one.
 */
import type { BenchResult } from './result.js';
import { round } from './stats.js';

type Ratio = BenchResult['ratios'][number];
type Measured = Omit<BenchResult, 'ratios' | 'duration_s' | 'machine'>;

function ratio(name: string, value: number, target?: { op: '<=' | '>='; bound: number }): Ratio {
  const met = target === undefined ? null : target.op === '<=' ? value <= target.bound : value >= target.bound;
  return { name, value: round(value), unit: 'x', target: target === undefined ? null : `${target.op} ${target.bound}`, met };
}

function overhead(name: string, us: number): Ratio {
  return { name, value: round(us), unit: 'us', target: null, met: null };
}

/**
 * Medians compared at the transport level (the hook as the runner calls it), since the raw call has
 * no runner either; the runner's own cost is its own line. "Small factor" for subprocess hooks is
 * read as at most 2× a bare spawn of the same command.
 */
export function computeRatios(m: Measured): Ratio[] {
  const out: Ratio[] = [];
  out.push(overhead('interceptor: HookRunner cost per call (runner − transport)', m.interceptor.runner.median_us - m.interceptor.transport.median_us));
  for (const c of m.components) {
    const raw = c.raw.median_us;
    if (c.metered !== null) {
      out.push(ratio(`${c.label}: metered ÷ raw call`, c.metered.transport.median_us / raw, { op: '<=', bound: 2 }));
      out.push(ratio(`${c.label}: worker ÷ metered`, c.worker.transport.median_us / c.metered.transport.median_us, { op: '>=', bound: 10 }));
      out.push(overhead(`${c.label}: metered overhead per call (metered − raw)`, c.metered.transport.median_us - raw));
    }
    out.push(ratio(`${c.label}: worker ÷ raw call`, c.worker.transport.median_us / raw));
    out.push(overhead(`${c.label}: worker overhead per call (worker − raw)`, c.worker.transport.median_us - raw));
    out.push(overhead(`${c.label}: worker overhead beyond a bare round trip (worker − raw − round trip)`, c.worker.transport.median_us - raw - c.worker.round_trip.median_us));
  }
  for (const s of m.subprocess) {
    out.push(ratio(`subprocess ${s.id}: hook ÷ bare spawn`, s.hook.median_us / s.bare.median_us, { op: '<=', bound: 2 }));
    out.push(overhead(`subprocess ${s.id}: host overhead per call (hook − bare spawn)`, s.hook.median_us - s.bare.median_us));
  }
  out.push(overhead(`chain of ${m.chain.length} (${m.chain.guest}), worker: per hook`, m.chain.worker.median_us / m.chain.length));
  if (m.chain.metered !== null) out.push(overhead(`chain of ${m.chain.length} (${m.chain.guest}), metered: per hook`, m.chain.metered.median_us / m.chain.length));
  return out;
}
