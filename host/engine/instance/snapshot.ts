import { FLAGS_EXPORT, GLOBAL_EXPORT_PREFIX } from '../meter/instrument.js';
import { Wasm, WASM_PAGE_BYTES, type WasmGlobal, type WasmInstance, type WasmMemory, type WasmTable } from '../wasm-api.js';

interface MemoryImage {
  readonly memory: WasmMemory;
  readonly bytes: number;
  /** The memory's pages as they were, `undefined` for a page of zeroes. */
  readonly pages: ReadonlyArray<Uint8Array | undefined>;
}

interface TableImage {
  readonly table: WasmTable;
  readonly elements: readonly unknown[];
}

interface GlobalImage {
  readonly global: WasmGlobal;
  readonly value: unknown;
}

/**
 * One of jco's handle tables as it was: `[free-list head, 0, scope, rep, scope, rep, …]`, entry `i` at
 * `2i`; an entry is free when its scope slot carries the free flag (then it links the free list).
 */
interface HandleTableImage {
  readonly table: unknown[];
  readonly entries: readonly unknown[];
  /** How many entries were live (held by the guest). */
  readonly live: number;
}

/** What the glue hands the host about an instance's handles (wasi/host-calls.ts). */
export interface HandleTables {
  /** jco's `HANDLE_TABLES` of the instance (indexed by table; holes where a component has none). */
  readonly tables: readonly unknown[];
  /** jco's `T_FLAG`: set in a scope slot, the entry is free. */
  readonly freeFlag: number;
}

function liveEntries(entries: readonly unknown[], flag: number): number {
  let live = 0;
  for (let k = 2; k + 1 < entries.length; k += 2) {
    const scope = entries[k];
    if (typeof scope === 'number' && (scope & flag) === 0) live++;
  }
  return live;
}

/**
 * What a reset must do with one handle table: nothing (it is as it was), write the snapshot back (the
 * guest holds exactly the handles it held — same numbers, same resources — and only the free list
 * moved), or give up (it holds another set of handles).
 */
function handleTableState(image: HandleTableImage, flag: number): 'same' | 'rewrite' | 'changed' {
  const { table, entries } = image;
  if (table.length === entries.length) {
    let k = 0;
    while (k < entries.length && table[k] === entries[k]) k++;
    if (k === entries.length) return 'same';
  }
  let live = 0;
  for (let k = 2; k + 1 < table.length; k += 2) {
    const scope = table[k];
    if (typeof scope !== 'number' || (scope & flag) !== 0) continue;
    live++;
    if (k >= entries.length || entries[k] !== scope || entries[k + 1] !== table[k + 1]) return 'changed';
  }
  return live === image.live ? 'rewrite' : 'changed';
}

const ZERO_PAGE = Buffer.alloc(WASM_PAGE_BYTES);

/** A page of zeroes? (A native comparison: a snapshot is taken at every instantiation.) */
function isZero(page: Uint8Array): boolean {
  return Buffer.from(page.buffer, page.byteOffset, page.byteLength).equals(ZERO_PAGE);
}

/**
 * A component instance as it was just after instantiation: every linear memory (its zero pages left
 * out), every table's elements and every mutable global, of every core instance, and jco's handle
 * tables. {@link restore} puts them back in place — unless something cannot be put back: a memory or
 * table that grew cannot shrink through the JavaScript API, a dropped segment cannot be undropped, a
 * `v128` global cannot be written, and a handle the guest holds that it did not hold at the snapshot
 * (or no longer holds) stands for a host resource that cannot be taken back (or given back) — in
 * which case it says so and the caller makes a fresh instance instead. A handle made and dropped
 * within calls leaves only the table's free list changed, which is put back, so the next call gets
 * the handle numbers a fresh instance would give.
 */
export class StateSnapshot {
  readonly #memories: MemoryImage[] = [];
  readonly #tables: TableImage[] = [];
  readonly #globals: GlobalImage[] = [];
  readonly #handles: HandleTableImage[] = [];
  readonly #freeFlag: number;
  readonly #restorable: boolean;

  /**
   * Take the snapshot of the core instances of one component instance and of its handle tables
   * (after instantiation, before any call).
   */
  constructor(instances: readonly WasmInstance[], handles: HandleTables | undefined) {
    this.#freeFlag = handles?.freeFlag ?? 0;
    for (const table of handles?.tables ?? []) {
      if (!Array.isArray(table)) continue;
      const entries = [...(table as unknown[])];
      this.#handles.push({ table: table as unknown[], entries, live: liveEntries(entries, this.#freeFlag) });
    }
    const memories = new Set<WasmMemory>();
    const tables = new Set<WasmTable>();
    let restorable = true;
    for (const instance of instances) {
      for (const [name, value] of Object.entries(instance.exports)) {
        if (value instanceof Wasm.Memory) memories.add(value);
        else if (value instanceof Wasm.Table) tables.add(value);
        else if (name.startsWith(GLOBAL_EXPORT_PREFIX) && value instanceof Wasm.Global) this.#globals.push({ global: value, value: value.value });
        else if (name === FLAGS_EXPORT && value instanceof Wasm.Global && value.value !== 0) restorable = false;
      }
    }
    for (const memory of memories) {
      const view = new Uint8Array(memory.buffer);
      const pages: Array<Uint8Array | undefined> = [];
      for (let at = 0; at < view.byteLength; at += WASM_PAGE_BYTES) {
        const page = view.subarray(at, at + WASM_PAGE_BYTES);
        pages.push(isZero(page) ? undefined : page.slice());
      }
      this.#memories.push({ memory, bytes: view.byteLength, pages });
    }
    for (const table of tables) {
      const elements: unknown[] = [];
      for (let i = 0; i < table.length; i++) elements.push(table.get(i));
      this.#tables.push({ table, elements });
    }
    this.#restorable = restorable;
  }

  /** Host memory the snapshot holds, in bytes. */
  get bytes(): number {
    return this.#memories.reduce((n, m) => n + m.pages.filter((p) => p !== undefined).length * WASM_PAGE_BYTES, 0);
  }

  /**
   * Put the instance back as it was. False (and nothing written) when it cannot be: the caller must
   * make a fresh instance.
   */
  restore(): boolean {
    if (!this.#restorable) return false;
    let rewrite = false;
    for (const image of this.#handles) {
      const state = handleTableState(image, this.#freeFlag);
      if (state === 'changed') return false;
      rewrite ||= state === 'rewrite';
    }
    for (const image of this.#memories) if (image.memory.buffer.byteLength !== image.bytes) return false;
    for (const image of this.#tables) if (image.table.length !== image.elements.length) return false;
    for (const image of this.#memories) {
      const view = new Uint8Array(image.memory.buffer);
      image.pages.forEach((page, i) => {
        const at = i * WASM_PAGE_BYTES;
        if (page === undefined) view.fill(0, at, at + WASM_PAGE_BYTES);
        else view.set(page, at);
      });
    }
    for (const image of this.#tables) {
      const { table, elements } = image;
      for (let i = 0; i < elements.length; i++) if (table.get(i) !== elements[i]) table.set(i, elements[i]);
    }
    for (const image of this.#globals) image.global.value = image.value;
    if (rewrite) {
      for (const { table, entries } of this.#handles) {
        table.length = entries.length;
        for (let k = 0; k < entries.length; k++) table[k] = entries[k];
      }
    }
    return true;
  }
}
