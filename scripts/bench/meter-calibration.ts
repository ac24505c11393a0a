/**
 * How long a unit of fuel takes for each kind of work the meter charges (meter/costs.ts): each loop
 * below runs metered for 300 ms on a bare core module, and the script prints ns per unit and what a
 * slice (SLICE_UNITS) lasts — the time a guest can run past its deadline per core module holding fuel.
 * A charge is calibrated when no kind's slice lasts much longer than the slowest memory-bound loop's.
 *
 *   npx tsx scripts/bench/meter-calibration.ts [--ms 300]
 *
 * (The exception-handling cases — `throw` and unwinding, charged THROW_UNITS and EH_ENTRY_UNITS — need
 * the legacy exception text format, which jco's wasm-tools do not parse; measured with wabt's
 * wat2wasm --enable-exceptions while calibrating: 2.5 ns/unit for throw+catch, 4.3 for a throw through
 * 1,000 frames.)
 */
import { parseArgs } from 'node:util';
import { CallMeter } from '../../host/engine/meter/call-meter.js';
import { SLICE_UNITS } from '../../host/engine/meter/costs.js';
import { instrumentModule } from '../../host/engine/meter/instrument.js';
import { Wasm } from '../../host/engine/wasm-api.js';
import { parseWat } from '../hostile/build.js';

const { values } = parseArgs({ options: { ms: { type: 'string', default: '300' } } });
const ms = Number(values.ms);

/** A chain of 983,040 links through 60 MiB in a full-period pseudo-random order (see pointer-chase.wat). */
const CHAIN = `(loop $i
  (i32.store (i32.mul (local.get $a) (i32.const 64))
    (i32.wrap_i64 (i64.mul (i64.rem_u (i64.add (i64.mul (i64.extend_i32_u (local.get $a)) (i64.const 60541)) (i64.const 7)) (i64.const 983040)) (i64.const 64))))
  (br_if $i (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (i32.const 983040))))`;

const KINDS: Record<string, { setup?: string; loop: string }> = {
  'loop br': { loop: '(loop $l (br $l))' },
  'counter loop': { loop: '(loop $l (local.set $a (i32.add (local.get $a) (i32.const 1))) (br $l))' },
  'pointer chase (60 MiB)': { setup: CHAIN, loop: '(loop $l (local.set $p (i32.load (local.get $p))) (br $l))' },
  '8 nested dependent loads': {
    setup: CHAIN,
    loop: '(loop $l (local.set $p (i32.load (i32.load (i32.load (i32.load (i32.load (i32.load (i32.load (i32.load (local.get $p)))))))))) (br $l))',
  },
  'memory.grow 0 (through the host)': { loop: '(loop $l (drop (memory.grow (i32.const 0))) (br $l))' },
  'empty table.* ops': {
    loop: '(loop $l (drop (table.grow $t (ref.null func) (i32.const 0))) (table.fill $t (i32.const 0) (ref.null func) (i32.const 0)) (table.copy $t $t (i32.const 0) (i32.const 0) (i32.const 0)) (table.set $t (i32.const 1) (table.get $t (i32.const 2))) (br $l))',
  },
  'table.set': { loop: '(loop $l (table.set $t (i32.const 1) (ref.func $f)) (br $l))' },
  'table.fill 4000': { loop: '(loop $l (table.fill $t (i32.const 0) (ref.func $f) (i32.const 4000)) (br $l))' },
  'table.copy 4000': { loop: '(loop $l (table.copy $t $t (i32.const 4000) (i32.const 0) (i32.const 4000)) (br $l))' },
  'memory.fill 0 bytes': { loop: '(loop $l (memory.fill (i32.const 0) (i32.const 0) (i32.const 0)) (br $l))' },
  'memory.fill 60 MiB': { loop: '(loop $l (memory.fill (i32.const 0) (local.get $a) (i32.const 62914560)) (local.set $a (i32.add (local.get $a) (i32.const 1))) (br $l))' },
  call_indirect: { loop: '(loop $l (drop (call_indirect $t (type $v) (i32.const 0))) (br $l))' },
  'recursion 5,000 deep': { loop: '(loop $l (drop (call $rec (i32.const 5000))) (br $l))' },
  'a call with 2,000 i64 locals': { loop: '(loop $l (drop (call $big (i32.const 1))) (br $l))' },
};

const locals = Array.from({ length: 2000 }, () => 'i64').join(' ');
process.stdout.write(`| work | ns per unit | a slice (${SLICE_UNITS} units) lasts |\n|---|---|---|\n`);
for (const [name, kind] of Object.entries(KINDS)) {
  const wat = `(module (type $v (func (result i32))) (memory 961) (table $t 10000 funcref) (elem (table $t) (i32.const 0) func $f)
    (func $f (result i32) (i32.const 1))
    (func $rec (param $n i32) (result i32) (if (result i32) (local.get $n) (then (i32.add (call $rec (i32.sub (local.get $n) (i32.const 1))) (i32.const 1))) (else (i32.const 0))))
    (func $big (param i32) (result i32) (local ${locals}) (local.get 0))
    (func (export "setup") (local $a i32) ${kind.setup ?? ''})
    (func (export "run") (local $a i32) (local $p i32) ${kind.loop}))`;
  const instance = Wasm.instantiateSync(await Wasm.compile(instrumentModule(await parseWat(wat)).bytes));
  const meter = new CallMeter(1 << 30, undefined);
  meter.begin(performance.now() + 60_000);
  meter.attach(instance, name);
  meter.begin(performance.now() + 60_000);
  (instance.exports.setup as () => void)();
  meter.begin(performance.now() + ms);
  const started = performance.now();
  try {
    (instance.exports.run as () => void)();
  } catch {
    // Stopped at the deadline.
  }
  const elapsed = performance.now() - started;
  const nsPerUnit = (elapsed * 1e6) / meter.unitsUsed();
  process.stdout.write(`| ${name} | ${nsPerUnit.toFixed(2)} | ${((SLICE_UNITS * nsPerUnit) / 1e6).toFixed(2)} ms |\n`);
}
