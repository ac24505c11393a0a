import { Wasm, type WasmModule } from '../wasm-api.js';
import { EXTERNREF, FUNCREF } from './module-facts.js';
import { uleb } from './reader.js';
import { HOST_SLOTS } from './stubs.js';

/*
 * A WebAssembly table only holds WebAssembly functions: a host function goes into an instrumented
 * module's host table as the export of this tiny module, which imports it. One instance per core
 * instance, made at instantiation (its imports are closures that know which core instance calls).
 *
 *   (module
 *     (type (func (param i32 i32) (result i32)))
 *     (type (func (param i32 funcref i32) (result i32)))
 *     (type (func (param i32 externref i32) (result i32)))
 *     (import "h" "refuel" (func (type 0)))
 *     (import "h" "memoryGrow" (func (type 0)))
 *     (import "h" "tableGrowFuncref" (func (type 1)))
 *     (import "h" "tableGrowExternref" (func (type 2)))
 *     (table (export "t") 4 4 funcref)
 *     (elem (i32.const 0) func 0 1 2 3))
 */

/** The host functions an instrumented core instance calls (see stubs.ts for when). */
export interface HostFunctions {
  /** Grant the next slice (the deficit included), or 0 to stop the guest. */
  refuel(deficit: number, unused: number): number;
  /** `memory.grow`: the old size in pages, -1 when refused, or HOST_STOP. */
  memoryGrow(memory: number, delta: number): number;
  /** `table.grow` on a funcref table: the old size, -1 when refused, or HOST_STOP. */
  tableGrowFuncref(table: number, init: unknown, delta: number): number;
  /** `table.grow` on an externref table. */
  tableGrowExternref(table: number, init: unknown, delta: number): number;
}

const NAMES: ReadonlyArray<keyof HostFunctions> = ['refuel', 'memoryGrow', 'tableGrowFuncref', 'tableGrowExternref'];

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function trampolineBytes(): Uint8Array {
  const I32 = 0x7f;
  const types = [
    [0x60, 2, I32, I32, 1, I32],
    [0x60, 3, I32, FUNCREF, I32, 1, I32],
    [0x60, 3, I32, EXTERNREF, I32, 1, I32],
  ];
  const imports = NAMES.map((n, i) => [...name('h'), ...name(n), 0x00, i < 2 ? 0 : i - 1]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [types.length, ...types.flat()]),
    ...section(2, [imports.length, ...imports.flat()]),
    ...section(4, [1, FUNCREF, 0x01, HOST_SLOTS, HOST_SLOTS]),
    ...section(7, [1, ...name('t'), 0x01, 0]),
    // Active segment for table 0 at offset 0: functions 0..3.
    ...section(9, [1, 0x00, 0x41, 0x00, 0x0b, HOST_SLOTS, 0, 1, 2, 3]),
  ]);
}

let compiled: WasmModule | undefined;

interface TableLike {
  get(index: number): unknown;
  set(index: number, value: unknown): void;
}

/** Put `host`'s functions into an instrumented instance's host table. */
export function fillHostTable(hostTable: unknown, host: HostFunctions): void {
  compiled ??= new Wasm.Module(trampolineBytes());
  const imports = { h: { refuel: host.refuel, memoryGrow: host.memoryGrow, tableGrowFuncref: host.tableGrowFuncref, tableGrowExternref: host.tableGrowExternref } };
  const table = (Wasm.instantiateSync(compiled, imports).exports.t as TableLike | undefined) ?? undefined;
  if (table === undefined) throw new Error('the trampoline exports no table');
  const target = hostTable as TableLike;
  for (let slot = 0; slot < HOST_SLOTS; slot++) target.set(slot, table.get(slot));
}
