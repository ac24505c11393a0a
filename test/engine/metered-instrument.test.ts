import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { CallMeter } from '../../host/engine/meter/call-meter.js';
import { EH_ENTRY_UNITS, THROW_UNITS } from '../../host/engine/meter/costs.js';
import { FUEL_EXPORT, METER_VERSION, MeterError, START_EXPORT, instrumentModule } from '../../host/engine/meter/instrument.js';
import { parseWat } from '../../scripts/hostile/build.js';
import { guestBuildDir, TEST_CACHE_DIR, ensureGuestsBuilt, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';
import { Wasm } from '../../host/engine/wasm-api.js';


interface Metered {
  readonly exports: Record<string, unknown>;
  readonly meter: CallMeter;
  /** Units `fn` spent, run with an explicit fuel of `budget` (undefined: it ran out). */
  spend(budget: number, fn: () => unknown): number | undefined;
}

/** Instantiate a WAT module metered, with its own meter (64 MiB, a deadline a minute away). */
async function metered(wat: string): Promise<Metered> {
  const { bytes } = instrumentModule(await parseWat(wat));
  const instance = new Wasm.Instance(new Wasm.Module(bytes));
  const meter = new CallMeter(64 * 1024 * 1024, undefined);
  meter.begin(performance.now() + 60_000);
  meter.attach(instance, 'test');
  return {
    exports: instance.exports,
    meter,
    spend(budget, fn) {
      meter.begin(performance.now() + 60_000, budget);
      try {
        fn();
      } catch (error) {
        if (error instanceof Wasm.RuntimeError && meter.stopped === 'fuel') return undefined;
        throw error;
      }
      return meter.unitsUsed();
    },
  };
}

describe('fuel instrumentation of core modules', () => {
  it('charges an interpreter-style dispatch for the handler it runs, not for every handler', async () => {
    // A loop dispatching with br_table over a chain of blocks; handler 1 is 2000 instructions long.
    const big = '(nop)'.repeat(2000);
    const { exports, spend } = await metered(`(module
      (func (export "run") (param $n i32) (param $op i32) (local $i i32)
        (loop $next
          (block $exit
            (block $h1
              (block $h0
                (br_table $h0 $h1 $exit (local.get $op)))
              ;; handler 0: a few instructions
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br_if $next (i32.lt_u (local.get $i) (local.get $n)))
              (return))
            ;; handler 1: long
            ${big}
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $next (i32.lt_u (local.get $i) (local.get $n)))
            (return)))))`);
    const run = exports.run as (n: number, op: number) => void;
    const small = spend(1e12, () => run(1000, 0)) ?? 0;
    const large = spend(1e12, () => run(1000, 1)) ?? 0;
    expect(small / 1000).toBeLessThan(40);
    expect(large / 1000).toBeGreaterThan(2000);
  });

  it('a loop that continues early pays for the part of its body it ran', async () => {
    const big = '(nop)'.repeat(2000);
    const { exports, spend } = await metered(`(module
      (func (export "run") (param $n i32) (local $i i32)
        (loop $next
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $next (i32.lt_u (local.get $i) (local.get $n)))
          ${big})))`);
    const used = spend(1e12, () => (exports.run as (n: number) => void)(1000)) ?? 0;
    expect(used / 1000).toBeLessThan(40);
  });

  it('charges bulk memory and table operations by size', async () => {
    const { exports, spend } = await metered(`(module
      (memory 32 32)
      (table 100000 funcref)
      (global $iterations (export "iterations") (mut i32) (i32.const 0))
      (func (export "fill") (loop $l
        (memory.fill (i32.const 0) (i32.const 7) (i32.const 1048576))
        (global.set $iterations (i32.add (global.get $iterations) (i32.const 1)))
        (br $l)))
      (func (export "tables") (loop $l
        (table.fill (i32.const 0) (ref.null func) (i32.const 100000))
        (global.set $iterations (i32.add (global.get $iterations) (i32.const 1)))
        (br $l))))`);
    const iterations = exports.iterations as { value: number };
    // 1 MiB per iteration costs 2^19 units: 2^24 units pay for at most 32 of them (unmetered by size,
    // the same budget would pay for about a million iterations).
    expect(spend(2 ** 24, exports.fill as () => void)).toBeUndefined();
    expect(iterations.value).toBeGreaterThanOrEqual(1);
    expect(iterations.value).toBeLessThanOrEqual(32);
    iterations.value = 0;
    expect(spend(1_000_000, exports.tables as () => void)).toBeUndefined();
    expect(iterations.value).toBeLessThanOrEqual(20);
  });

  it('a start function is not run by the engine but handed to the host, which runs it under the deadline', async () => {
    const { bytes } = instrumentModule(await parseWat('(module (func $forever (loop $l (br $l))) (start $forever))'));
    // Instantiating does not run it (it would never return)...
    const instance = new Wasm.Instance(new Wasm.Module(bytes));
    const meter = new CallMeter(64 * 1024 * 1024, undefined);
    meter.begin(performance.now() + 50);
    const start = meter.attach(instance, 'test');
    expect(start).toBe(instance.exports[START_EXPORT]);
    // ...the host runs it, and the meter stops it at the deadline.
    const started = performance.now();
    expect(() => start?.()).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('deadline');
    expect(performance.now() - started).toBeLessThan(50 + 100);
  });

  it('a guest whose counter runs out asks the host; past the deadline it traps, and no catch can go on', async () => {
    const { exports, meter } = await metered(`(module
      (func (export "spin") (loop $l (br $l))))`);
    meter.begin(performance.now() + 30);
    const started = performance.now();
    expect(() => (exports.spin as () => void)()).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('deadline');
    expect(performance.now() - started).toBeLessThan(30 + 100);
    // A stopped meter grants nothing until the next call begins.
    expect(() => (exports.spin as () => void)()).toThrow(Wasm.RuntimeError);
    meter.begin(performance.now() + 1000, 100_000);
    expect(() => (exports.spin as () => void)()).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('fuel');
  });

  it('grows go through the host: refused past the cap (-1), the component total counted', async () => {
    const { exports, meter } = await metered(`(module
      (memory (export "m") 1)
      (table $t 0 funcref)
      (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
      (func (export "tgrow") (param i32) (result i32) (table.grow $t (ref.null func) (local.get 0))))`);
    meter.begin(performance.now() + 10_000);
    const grow = exports.grow as (pages: number) => number;
    const tgrow = exports.tgrow as (n: number) => number;
    expect(grow(0)).toBe(1);
    expect(grow(1000)).toBe(1); // 1001 pages of 1024: under 64 MiB
    expect(meter.memoryRefused).toBe(false);
    expect(grow(100)).toBe(-1);
    expect(meter.memoryRefused).toBe(true);
    // What memory left: 23 pages; a table of 1M funcref elements would take 64 MB.
    expect(tgrow(1_000_000)).toBe(-1);
    expect(tgrow(1000)).toBe(0);
    expect(meter.usedBytes()).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('a module that can throw pays for unwinding on every call; a throw-and-catch runaway stops at the deadline', async () => {
    // jco's wasm-tools do not parse the (legacy) exception-handling text Node 20 runs, so the module is
    // assembled here:
    //   (module (type (func)) (type (func (param i32))) (tag $e (type 0))
    //     (func $deep (param i32) (if (local.get 0) (then (call $deep (i32.sub (local.get 0) (i32.const 1)))) (else (throw $e))))
    //     (func (export "run") (loop (try (do (call $deep (i32.const 1000))) (catch_all)) (br 0)))
    //     (export "deep" (func $deep)))
    const deep = [0x00, 0x20, 0x00, 0x04, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x00, 0x05, 0x08, 0x00, 0x0b, 0x0b];
    const run = [0x00, 0x03, 0x40, 0x06, 0x40, 0x41, 0xe8, 0x07, 0x10, 0x00, 0x19, 0x0b, 0x0c, 0x00, 0x0b, 0x0b];
    const section = (id: number, content: number[]): number[] => [id, content.length, ...content];
    const bytes = new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, [2, 0x60, 0, 0, 0x60, 1, 0x7f, 0]),
      ...section(3, [2, 1, 0]),
      ...section(13, [1, 0x00, 0]),
      ...section(7, [2, 3, 0x72, 0x75, 0x6e, 0x00, 1, 4, 0x64, 0x65, 0x65, 0x70, 0x00, 0]),
      ...section(10, [2, deep.length, ...deep, run.length, ...run]),
    ]);
    expect(Wasm.validate(bytes)).toBe(true);
    const { bytes: metered } = instrumentModule(bytes);
    const instance = new Wasm.Instance(new Wasm.Module(metered));
    const meter = new CallMeter(64 * 1024 * 1024, undefined);
    meter.begin(performance.now() + 60_000);
    meter.attach(instance, 'eh');
    // 1001 calls and a throw that unwinds them all (the exception leaves the module: it is not a trap).
    meter.begin(performance.now() + 60_000);
    expect(() => (instance.exports.deep as (n: number) => void)(1000)).toThrow();
    expect(meter.stopped).toBeUndefined();
    expect(meter.unitsUsed()).toBeGreaterThanOrEqual(1001 * EH_ENTRY_UNITS + THROW_UNITS);
    meter.begin(performance.now() + 50);
    const started = performance.now();
    expect(() => (instance.exports.run as () => void)()).toThrow(Wasm.RuntimeError);
    expect(meter.stopped).toBe('deadline');
    expect(performance.now() - started).toBeLessThan(50 + 100);
  });

  it('refuses what it cannot bound: memory.atomic.wait blocks the thread', async () => {
    const wat = '(module (memory 1 1 shared) (func (export "wait") (result i32) (memory.atomic.wait32 (i32.const 0) (i32.const 0) (i64.const -1))))';
    const bytes = await parseWat(wat);
    expect(() => instrumentModule(bytes)).toThrow(MeterError);
    expect(() => instrumentModule(bytes)).toThrow(/atomic\.wait/);
  });
});

describe('fuel instrumentation of real guests', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    await ensureGuestsBuilt('c', [join(guestBuildDir('c'), 'guard.wasm')]);
    await ensureGuestsBuilt('js', [join(guestBuildDir('js'), 'quickjs', 'guard.wasm')]);
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  for (const [name, path] of [
    ['WAT', watGuest('stdio')],
    ['C (with the WASI adapter)', join(guestBuildDir('c'), 'guard.wasm')],
    ['JS on QuickJS (13 core modules, dynamically linked)', join(guestBuildDir('js'), 'quickjs', 'guard.wasm')],
  ] as const) {
    it(`${name}: every core module is metered, valid, and the guest answers`, async () => {
      const t = componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation: 'metered' });
      transports.push(t);
      const info = await t.load();
      const stored = join(info.cache_entry, `metered-v${METER_VERSION}`);
      const modules = (await readdir(stored)).filter((f) => f.endsWith('.wasm'));
      expect(modules.length).toBeGreaterThan(0);
      for (const file of modules) {
        const bytes = new Uint8Array(await readFile(join(stored, file)));
        expect(Wasm.validate(bytes)).toBe(true);
        expect(Buffer.from(bytes).includes(FUEL_EXPORT)).toBe(true);
      }
      const result = await t.invoke(preRequest({ command: 'ls' }), CONTEXT);
      expect(result.ok).toBe(true);
    });
  }
});
