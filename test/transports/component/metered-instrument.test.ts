import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../../host/transports/component/index.js';
import { FUEL_EXPORT, INSTANTIATION_FUEL, METER_VERSION, MeterError, instrumentModule } from '../../../host/transports/component/meter/instrument.js';
import { parseWat } from '../../../host/kit/build/wasm-tools.js';
import { guestBuildDir, TEST_CACHE_DIR, ensureGuestsBuilt, ensureWatGuestsBuilt, watGuest } from '../../helpers/guests.js';
import { CONTEXT, preRequest } from './requests.js';

interface Global {
  value: bigint;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
  RuntimeError: new () => Error;
  instantiate(bytes: Uint8Array, imports?: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
  validate(bytes: Uint8Array): boolean;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Instantiate a WAT module metered; its exports and its fuel counter. */
async function metered(wat: string): Promise<{ exports: Record<string, unknown>; fuel: Global }> {
  const { bytes } = instrumentModule(await parseWat(wat));
  const exports = new Wasm.Instance(new Wasm.Module(bytes)).exports;
  return { exports, fuel: exports[FUEL_EXPORT] as Global };
}

/** Run `fn` with `fuel`; the units it used (or undefined if it ran out). */
function spend(fuel: Global, budget: bigint, fn: () => unknown): bigint | undefined {
  fuel.value = budget;
  try {
    fn();
  } catch (error) {
    if (error instanceof Wasm.RuntimeError && fuel.value < 0n) return undefined;
    throw error;
  }
  return budget - fuel.value;
}

describe('fuel instrumentation of core modules', () => {
  it('charges an interpreter-style dispatch for the handler it runs, not for every handler', async () => {
    // A loop dispatching with br_table over a chain of blocks; handler 1 is 2000 instructions long.
    const big = '(nop)'.repeat(2000);
    const { exports, fuel } = await metered(`(module
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
    const small = spend(fuel, 10n ** 12n, () => run(1000, 0)) ?? 0n;
    const large = spend(fuel, 10n ** 12n, () => run(1000, 1)) ?? 0n;
    expect(small / 1000n).toBeLessThan(40n);
    expect(large / 1000n).toBeGreaterThan(2000n);
  });

  it('a loop that continues early pays for the part of its body it ran', async () => {
    const big = '(nop)'.repeat(2000);
    const { exports, fuel } = await metered(`(module
      (func (export "run") (param $n i32) (local $i i32)
        (loop $next
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $next (i32.lt_u (local.get $i) (local.get $n)))
          ${big})))`);
    const used = spend(fuel, 10n ** 12n, () => (exports.run as (n: number) => void)(1000)) ?? 0n;
    expect(used / 1000n).toBeLessThan(40n);
  });

  it('charges bulk memory and table operations by size', async () => {
    const { exports, fuel } = await metered(`(module
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
    expect(spend(fuel, 2n ** 24n, exports.fill as () => void)).toBeUndefined();
    expect(iterations.value).toBeGreaterThanOrEqual(1);
    expect(iterations.value).toBeLessThanOrEqual(32);
    iterations.value = 0;
    expect(spend(fuel, 1_000_000n, exports.tables as () => void)).toBeUndefined();
    expect(iterations.value).toBeLessThanOrEqual(20);
  });

  it("bounds a start function that never returns: instantiation traps instead of hanging", async () => {
    const { bytes } = instrumentModule(await parseWat('(module (func $forever (loop $l (br $l))) (start $forever))'));
    const started = performance.now();
    await expect(Wasm.instantiate(bytes)).rejects.toBeInstanceOf(Wasm.RuntimeError);
    // INSTANTIATION_FUEL (2e9 units): well under a minute even on a slow shared machine.
    expect(INSTANTIATION_FUEL).toBe(2_000_000_000n);
    expect(performance.now() - started).toBeLessThan(60_000);
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
