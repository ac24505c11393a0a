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
  /** A trap: `unreachable`, out-of-bounds access, integer divide by zero... */
  readonly RuntimeError: abstract new (...args: never[]) => Error;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  validate(bytes: Uint8Array): boolean;
  instantiate(module: WasmModule, imports?: Readonly<Record<string, unknown>>): Promise<WasmInstance>;
}

/** `globalThis.WebAssembly`, typed. */
export const Wasm: WasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Wasm pages are 64 KiB. */
export const WASM_PAGE_BYTES = 65536;
