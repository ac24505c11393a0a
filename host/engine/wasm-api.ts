/**
 * The parts of the WebAssembly JS API this transport uses, typed. The project compiles against lib
 * ES2023 without DOM, which declares none of it; Node provides it as a global at run time.
 */

/** A compiled core module (`WebAssembly.Module`): can be posted to a worker. */
export interface WasmModule {
  readonly [Symbol.toStringTag]: string;
}

/** A linear memory (`WebAssembly.Memory`). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  /** Grow by `delta` pages; the old size in pages. Throws a RangeError when it cannot. */
  grow(delta: number): number;
}

/** A table (`WebAssembly.Table`). */
export interface WasmTable {
  readonly length: number;
  get(index: number): unknown;
  set(index: number, value: unknown): void;
  /** Grow by `delta` elements set to `init`; the old length. Throws a RangeError when it cannot. */
  grow(delta: number, init?: unknown): number;
}

/** A global (`WebAssembly.Global`); an i64 one's value is a bigint. */
export interface WasmGlobal {
  value: unknown;
}

/** An instantiated core module. */
export interface WasmInstance {
  readonly exports: Readonly<Record<string, unknown>>;
}

interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => WasmModule;
  readonly Memory: abstract new (...args: never[]) => WasmMemory;
  readonly Global: abstract new (...args: never[]) => WasmGlobal;
  readonly Table: abstract new (...args: never[]) => WasmTable;
  readonly Instance: new (module: WasmModule, imports?: Readonly<Record<string, unknown>>) => WasmInstance;
  /** A trap: `unreachable`, out-of-bounds access, integer divide by zero... */
  readonly RuntimeError: abstract new (...args: never[]) => Error;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  validate(bytes: Uint8Array): boolean;
  instantiate(module: WasmModule, imports?: Readonly<Record<string, unknown>>): Promise<WasmInstance>;
}

interface WasmApiWithSync extends WasmApi {
  /** `new WebAssembly.Instance(module, imports)`: synchronous (start functions run before it returns). */
  instantiateSync(module: WasmModule, imports?: Readonly<Record<string, unknown>>): WasmInstance;
}

/** `globalThis.WebAssembly`, typed. */
const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
export const Wasm: WasmApiWithSync = Object.assign(Object.create(api) as WasmApi, {
  instantiateSync: (module: WasmModule, imports?: Readonly<Record<string, unknown>>): WasmInstance => new api.Instance(module, imports),
});

/** Wasm pages are 64 KiB. */
export const WASM_PAGE_BYTES = 65536;
