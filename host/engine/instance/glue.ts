import type { WasiImports } from '../wasi/index.js';
import type { WasmInstance, WasmModule } from '../wasm-api.js';

/** jco's instantiation-mode glue: `instantiate(getCoreModule, imports, instantiateCore)`. */
export interface Glue {
  /**
   * Instantiate. Given an `instantiateCore` that returns instances (not promises), jco's glue runs to
   * the end synchronously and returns the exports; otherwise it returns a promise of them.
   */
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: WasiImports,
    instantiateCore: (module: WasmModule, imports?: Readonly<Record<string, unknown>>) => WasmInstance | Promise<WasmInstance>,
  ): unknown;
}

/** Check that an imported module is jco glue. */
export function asGlue(module: unknown): Glue {
  const instantiate = (module as { instantiate?: unknown } | null)?.instantiate;
  if (typeof instantiate !== 'function') throw new TypeError('the transpiled glue exports no instantiate()');
  return module as Glue;
}
