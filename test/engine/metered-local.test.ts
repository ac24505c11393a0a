import { describe, expect, it } from 'vitest';
import { CallMeter } from '../../host/engine/meter/call-meter.js';
import { EH_ENTRY_UNITS, THROW_UNITS } from '../../host/engine/meter/costs.js';
import { instrumentModule, type CounterPlacement } from '../../host/engine/meter/instrument.js';
import { parseWat } from '../../scripts/hostile/build.js';
import { Wasm } from '../../host/engine/wasm-api.js';

/*
 * The fuel counter kept in a local of each function (the default placement) against the global
 * (METER_VERSION 5's placement): the same units charged on every way out of a function, and every
 * change the host makes to the global seen by the frame that called it.
 */


const PLACEMENTS: readonly CounterPlacement[] = ['global', 'local'];

interface Metered {
  readonly exports: Record<string, unknown>;
  readonly meter: CallMeter;
}

/** Instantiate core module `bytes` metered with the counter in `placement`, attached to its own meter. */
function metered(bytes: Uint8Array, placement: CounterPlacement, imports: (meter: CallMeter) => Readonly<Record<string, unknown>> = () => ({})): Metered {
  const out = instrumentModule(bytes, { counter: placement }).bytes;
  expect(Wasm.validate(out)).toBe(true);
  const meter = new CallMeter(64 * 1024 * 1024, undefined);
  const instance = new Wasm.Instance(new Wasm.Module(out), imports(meter));
  meter.begin(performance.now() + 60_000);
  meter.attach(instance, placement);
  return { exports: instance.exports, meter };
}

/** Units `fn` spent on a fresh call (a deadline a minute away; exceptions leaving the module are fine). */
function unitsOf(m: Metered, fn: () => unknown): number {
  m.meter.begin(performance.now() + 60_000);
  try {
    fn();
  } catch (error) {
    if (error instanceof Wasm.RuntimeError) throw error;
  }
  expect(m.meter.stopped).toBeUndefined();
  return m.meter.unitsUsed();
}

function section(id: number, content: readonly number[]): number[] {
  return [id, content.length, ...content];
}

function name(text: string): number[] {
  return [text.length, ...new TextEncoder().encode(text)];
}

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/*
 * Exception-handling modules are assembled here: jco's wasm-tools do not parse the (legacy)
 * exception-handling text Node 20 runs.
 *
 *   (module (type (func)) (type (func (param i32))) (tag $e (type 0))
 *     (func (export "throws") (param $n i32)
 *       (loop (try (do (throw $e)) (catch_all)) (br_if 0 (local.tee $n (i32.sub (local.get $n) (i32.const 1))))))
 *     (func $deep (export "deep") (param i32)
 *       (if (local.get 0) (then (call $deep (i32.sub (local.get 0) (i32.const 1)))) (else (throw $e)))))
 */
function throwingModule(): Uint8Array {
  const throws = [0x00, 0x03, 0x40, 0x06, 0x40, 0x08, 0x00, 0x19, 0x0b, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x0b];
  const deep = [0x00, 0x20, 0x00, 0x04, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x01, 0x05, 0x08, 0x00, 0x0b, 0x0b];
  return new Uint8Array([
    ...HEADER,
    ...section(1, [2, 0x60, 0, 0, 0x60, 1, 0x7f, 0]),
    ...section(3, [2, 1, 1]),
    ...section(13, [1, 0x00, 0]),
    ...section(7, [2, ...name('throws'), 0x00, 0, ...name('deep'), 0x00, 1]),
    ...section(10, [2, throws.length, ...throws, deep.length, ...deep]),
  ]);
}

/*
 *   (module (type (func)) (import "h" "poke" (func $poke))
 *     (global $iterations (export "iterations") (mut i32) (i32.const 0))
 *     (func (export "run")
 *       (try (do (call $poke)) (catch_all))
 *       (loop (global.set $iterations (i32.add (global.get $iterations) (i32.const 1))) (br 0))))
 */
function catchingModule(): Uint8Array {
  const run = [0x00, 0x06, 0x40, 0x10, 0x00, 0x19, 0x0b, 0x03, 0x40, 0x23, 0x00, 0x41, 0x01, 0x6a, 0x24, 0x00, 0x0c, 0x00, 0x0b, 0x0b];
  return new Uint8Array([
    ...HEADER,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(2, [1, ...name('h'), ...name('poke'), 0x00, 0]),
    ...section(3, [1, 0]),
    ...section(6, [1, 0x7f, 0x01, 0x41, 0x00, 0x0b]),
    ...section(7, [2, ...name('run'), 0x00, 1, ...name('iterations'), 0x03, 0]),
    ...section(10, [1, run.length, ...run]),
  ]);
}

/** Every way out of a function, and calls between segments: exported `(param $n i32)` functions. */
const EXITS = `(module
  (memory 1) (table 1 funcref) (elem (i32.const 0) $leaf)
  (type $t (func (param i32) (result i32)))
  (global $sink (mut i32) (i32.const 0))
  (func $leaf (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
  (func (export "return") (param $n i32) (local $i i32)
    (loop $l
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return)))
      (local.set $i (call $leaf (local.get $i)))
      (br $l)))
  (func (export "br-to-function") (param $n i32) (local $i i32)
    (block $b (loop $l
      (br_if 2 (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $i (call_indirect (type $t) (local.get $i) (i32.const 0)))
      (br $l))))
  (func (export "br_table") (param $n i32) (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_table 0 1 (i32.ge_u (local.get $i) (local.get $n)))))
  (func $tail (export "return_call") (param $n i32)
    (if (local.get $n) (then (return_call $tail (i32.sub (local.get $n) (i32.const 1))))))
  (func (export "stubs") (param $n i32)
    (loop $l
      (drop (memory.grow (i32.const 0)))
      (memory.fill (i32.const 0) (local.get $n) (i32.const 64))
      (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1))))))
  (func $branchy (param $x i32) (result i32)
    (if (i32.and (local.get $x) (i32.const 1)) (then (local.set $x (call $leaf (local.get $x)))))
    (if (i32.and (local.get $x) (i32.const 2)) (then (local.set $x (call $leaf (call $leaf (local.get $x))))))
    (if (i32.and (local.get $x) (i32.const 4)) (then (local.set $x (call $leaf (local.get $x)))) (else (local.set $x (i32.const 3))))
    (local.get $x))
  (func (export "branchy") (param $n i32) (local $s i32)
    (loop $l
      (local.set $s (call $branchy (i32.xor (local.get $s) (local.get $n))))
      (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    (global.set $sink (local.get $s))))`;

describe('the fuel counter in a local', () => {
  it('charges what the counter in the global charges, on every way out of a function', async () => {
    const bytes = await parseWat(EXITS);
    const [global, local] = PLACEMENTS.map((p) => metered(bytes, p));
    for (const fn of ['return', 'br-to-function', 'br_table', 'return_call', 'stubs', 'branchy']) {
      const units = [global, local].map((m) => unitsOf(m as Metered, () => (m?.exports[fn] as (n: number) => void)(1000)));
      expect(units[0], fn).toBeGreaterThan(1000);
      expect(units[1], fn).toBe(units[0]);
    }
  });

  it('a throw loses no charge, within the frame or through a thousand of them', () => {
    const bytes = throwingModule();
    expect(Wasm.validate(bytes)).toBe(true);
    const [global, local] = PLACEMENTS.map((p) => metered(bytes, p)) as [Metered, Metered];
    const throws = [global, local].map((m) => unitsOf(m, () => (m.exports.throws as (n: number) => void)(1000)));
    expect(throws[0]).toBeGreaterThanOrEqual(1000 * THROW_UNITS);
    expect(throws[1]).toBe(throws[0]);
    // 1001 calls and a throw that unwinds them all (the exception leaves the module).
    const deep = [global, local].map((m) => unitsOf(m, () => (m.exports.deep as (n: number) => void)(1000)));
    expect(deep[0]).toBeGreaterThanOrEqual(1001 * EH_ENTRY_UNITS + THROW_UNITS);
    expect(deep[1]).toBe(deep[0]);
  });

  it('a guest that loops by throwing and catching stops at the deadline', () => {
    const { exports, meter } = metered(throwingModule(), 'local');
    meter.begin(performance.now() + 50);
    const started = performance.now();
    // A million throws take a second or more: a meter that lost the throws' charges would let them
    // all run and return (bounded, so such a bug fails this test instead of hanging it).
    expect(() => (exports.throws as (n: number) => void)(1_000_000)).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('deadline');
    expect(performance.now() - started).toBeLessThan(50 + 100);
  });

  it("a frame that catches the host's stop runs on without the fuel its local held: it traps at its next check", () => {
    for (const placement of PLACEMENTS) {
      // The import spends the call's time: the meter stops the guest and unwinds it with an exception.
      const { exports, meter } = metered(catchingModule(), placement, (m) => ({
        h: {
          poke: m.wrap(() => {
            while (performance.now() <= m.deadline);
          }),
        },
      }));
      const iterations = exports.iterations as { value: number };
      meter.begin(performance.now() + 5);
      expect(() => (exports.run as () => void)(), placement).toThrow(Wasm.RuntimeError);
      expect(meter.stopped).toBe('deadline');
      expect(iterations.value, placement).toBe(0);
    }
  });

  it('a caller sees what a callee did to the counter: emptied by the host, it traps at its next check', async () => {
    const bytes = await parseWat(`(module (import "h" "poke" (func $poke))
      (global $iterations (export "iterations") (mut i32) (i32.const 0))
      (func (export "run")
        (call $poke)
        (loop $l (global.set $iterations (i32.add (global.get $iterations) (i32.const 1))) (br $l))))`);
    for (const placement of PLACEMENTS) {
      const { exports, meter } = metered(bytes, placement, (m) => ({ h: { poke: () => m.stop('deadline') } }));
      const iterations = exports.iterations as { value: number };
      meter.begin(performance.now() + 60_000);
      expect(() => (exports.run as () => void)(), placement).toThrow(Wasm.RuntimeError);
      expect(iterations.value, placement).toBe(0);
    }
  });

  it('a function with as many locals as V8 takes keeps its counter in the global', async () => {
    // 1 parameter and 49,999 locals: one more would not validate.
    const bytes = await parseWat(`(module (func (export "run") (param i32) (local ${'i32 '.repeat(49_999)}) (loop $l (br $l))))`);
    const { exports, meter } = metered(bytes, 'local');
    meter.begin(performance.now() + 30);
    expect(() => (exports.run as (n: number) => void)(0)).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('deadline');
  });
});
