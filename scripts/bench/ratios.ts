/**
 * The comparisons the performance issues ask for, computed from the measured figures: each hook
 * against the JSON floor and the baseline it is built on (measured interleaved with it), with the
 * issue's target where it states one.
 */
import type { BenchResult } from './result.js';
import { round } from './stats.js';

type Ratio = BenchResult['ratios'][number];
type Measured = Omit<BenchResult, 'ratios' | 'duration_s' | 'machine'>;

function ratio(name: string, value: number, target?: { op: '<=' | '>=' | '<'; bound: number }): Ratio {
  let met: boolean | null = null;
  if (target !== undefined) met = target.op === '<=' ? value <= target.bound : target.op === '<' ? value < target.bound : value >= target.bound;
  return { name, value: round(value), unit: 'x', target: target === undefined ? null : `${target.op} ${target.bound}`, met };
}

function overhead(name: string, us: number): Ratio {
  return { name, value: round(us), unit: 'us', target: null, met: null };
}

/** Guests whose metered guard the issue holds to ≤ 2× the floor (compiled natively). */
const NATIVE = new Set(['c', 'rust-std', 'rust-nostd', 'wat']);
/** JS engines, held to ≤ 1.3× their own raw direct call. */
const JS = new Set(['js-quickjs', 'js-spidermonkey', 'ts-quickjs', 'ts-spidermonkey']);

/**
 * Targets (issue "Microsecond hooks for real", medians through HookRunner.pre): metered C/Rust/WAT
 * guard ≤ 2× the JSON floor and below Extism in-thread; a chain of five metered hooks ≤ 7× the floor;
 * worker isolation ≤ 7× the floor and ≤ 1.3× (bare SharedArrayBuffer round trip + raw call);
 * interceptor ≤ 1.5× the floor; QuickJS and SpiderMonkey guards ≤ 1.3× their own raw direct call.
 * Plus the earlier promise: metered ≤ 2× the raw call through jco's glue.
 */
export function computeRatios(m: Measured): Ratio[] {
  const out: Ratio[] = [];
  const i = m.interceptor;
  out.push(ratio('interceptor (TS guard), runner ÷ JSON floor', i.runner.median_us / i.floor.median_us, { op: '<=', bound: 1.5 }));
  out.push(overhead('interceptor: HookRunner cost per call (runner − transport)', i.runner.median_us - i.transport.median_us));

  const p = m.peer;
  if (p.in_thread.metered !== null) {
    out.push(ratio(`${p.guest} metered, runner ÷ JSON floor (peer run)`, p.in_thread.metered.median_us / p.in_thread.floor.median_us, { op: '<=', bound: 2 }));
    out.push(ratio(`${p.guest} metered, runner ÷ Extism in-thread`, p.in_thread.metered.median_us / p.in_thread.extism.median_us, { op: '<', bound: 1 }));
  }
  if (p.in_thread.metered_wat !== null) out.push(ratio('WAT metered, runner ÷ Extism in-thread (the same policy code)', p.in_thread.metered_wat.median_us / p.in_thread.extism.median_us, { op: '<', bound: 1 }));
  out.push(ratio('Extism in-thread ÷ JSON floor', p.in_thread.extism.median_us / p.in_thread.floor.median_us));
  out.push(ratio('Extism worker ÷ JSON floor', p.worker.extism.median_us / p.worker.floor.median_us));
  out.push(ratio(`${p.guest} worker, runner ÷ Extism worker`, p.worker.worker.median_us / p.worker.extism.median_us));

  for (const c of m.components) {
    const t = c.in_thread;
    const floorUs = t.floor.median_us;
    if (t.metered_runner !== null) {
      out.push(ratio(`${c.label}: metered runner ÷ JSON floor`, t.metered_runner.median_us / floorUs, NATIVE.has(c.id) ? { op: '<=', bound: 2 } : undefined));
    }
    if (t.metered_transport !== null) {
      out.push(ratio(`${c.label}: metered transport ÷ raw call (jco glue)`, t.metered_transport.median_us / t.raw.median_us, { op: '<=', bound: 2 }));
    }
    if (t.metered_runner !== null && t.raw_direct !== null && JS.has(c.id)) {
      out.push(ratio(`${c.label}: metered runner ÷ raw direct call`, t.metered_runner.median_us / t.raw_direct.median_us, { op: '<=', bound: 1.3 }));
    }
    if (t.raw_direct !== null) out.push(ratio(`${c.label}: raw jco glue ÷ raw direct call`, t.raw.median_us / t.raw_direct.median_us));
    const w = c.worker;
    const rawUs = t.raw_direct?.median_us ?? t.raw.median_us;
    out.push(ratio(`${c.label}: worker runner ÷ JSON floor`, w.runner.median_us / floorUs, NATIVE.has(c.id) ? { op: '<=', bound: 7 } : undefined));
    out.push(ratio(`${c.label}: worker runner ÷ (SAB round trip + raw call)`, w.runner.median_us / (w.sab_round_trip.median_us + rawUs), NATIVE.has(c.id) ? { op: '<=', bound: 1.3 } : undefined));
    out.push(overhead(`${c.label}: worker transport beyond a postMessage round trip and the raw call`, w.transport.median_us - w.post_round_trip.median_us - t.raw.median_us));
  }
  for (const s of m.subprocess) {
    out.push(ratio(`subprocess ${s.id}: hook ÷ bare spawn`, s.hook.median_us / s.bare.median_us, { op: '<=', bound: 2 }));
    out.push(overhead(`subprocess ${s.id}: host overhead per call (hook − bare spawn)`, s.hook.median_us - s.bare.median_us));
  }
  out.push(...chainRatios(m.chain));
  for (const b of m.blocks) out.push(ratio(`block: ${b.block}, ${b.case}: before ÷ after`, b.before.median_us / b.after.median_us));
  return out;
}

/** The chain's comparisons (also printed alone by `scripts/bench.ts --only chain`). */
export function chainRatios(ch: BenchResult['chain']): Ratio[] {
  const out: Ratio[] = [];
  if (ch.metered !== null) out.push(ratio(`chain of ${ch.length} metered (${ch.guest}, ${ch.instances_of_one_component} instances of one component) ÷ JSON floor`, ch.metered.median_us / ch.floor.median_us, { op: '<=', bound: 7 }));
  out.push(overhead(`chain of ${ch.length} (${ch.guest}), worker: per hook`, ch.worker.median_us / ch.length));
  if (ch.metered !== null) out.push(overhead(`chain of ${ch.length} (${ch.guest}), metered: per hook`, ch.metered.median_us / ch.length));
  const hop = ch.one_hop;
  if (hop !== undefined) {
    // Issue 24: consecutive worker hooks in one hop — the chain ≤ 2× one worker hook; one worker hook
    // ≤ 5× the floor. Both as a host runs them by default: workers poll spin_us after a reply.
    out.push(ratio(`chain of ${ch.length} in worker isolation, one hop (shared workers) ÷ one worker hook (default: workers poll ${hop.spin_us} µs)`, hop.chain_spin.median_us / hop.one_hook_spin.median_us, { op: '<=', bound: 2 }));
    if (hop.floor_spin !== undefined) {
      out.push(ratio(`one worker hook (runner; default: workers poll ${hop.spin_us} µs) ÷ JSON floor`, hop.one_hook_spin.median_us / hop.floor_spin.median_us, { op: '<=', bound: 5 }));
    }
    out.push(ratio('one worker hook (runner), workers sleeping at once (spin_us 0) ÷ JSON floor', hop.one_hook.median_us / hop.floor.median_us));
    out.push(ratio(`chain of ${ch.length}, one hop: separate workers per hook ÷ shared workers`, ch.worker.median_us / hop.chain.median_us));
    out.push(ratio(`one worker hook: workers spinning ${hop.spin_us} µs ÷ sleeping at once`, hop.one_hook_spin.median_us / hop.one_hook.median_us));
    out.push(ratio(`chain of ${ch.length}, one hop: workers spinning ${hop.spin_us} µs ÷ sleeping at once`, hop.chain_spin.median_us / hop.chain.median_us));
  }
  return out;
}
