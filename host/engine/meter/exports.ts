/**
 * The names an instrumented module exports for the host (the meter, state resets), and the version of
 * the rewrite (part of the cache key of instrumented modules). See instrument.ts.
 */
import { FUNCREF } from './module-facts.js';
/** Bumped whenever the rewrite changes: part of the on-disk cache key of instrumented modules. */
export const METER_VERSION = 6;

/** The export under which every instrumented module exposes its fuel counter (an i64 `WebAssembly.Global`). */
export const FUEL_EXPORT = '__basis_fuel';
/** The funcref table through which the module calls the host (see stubs.ts `HOST_SLOT`). */
export const HOST_TABLE_EXPORT = '__basis_host';
/** The module's start function, exported instead of started. */
export const START_EXPORT = '__basis_start';
/** Every memory of the module, by index: `__basis_memory_0`... */
export const MEMORY_EXPORT_PREFIX = '__basis_memory_';
/** Every table of the module, by index, with its element type: `__basis_table_f0` (funcref), `__basis_table_e1` (externref). */
export const TABLE_EXPORT_PREFIX = '__basis_table_';

/** Every mutable global the module defines, by index: `__basis_global_3`... (restored by a state reset). */
export const GLOBAL_EXPORT_PREFIX = '__basis_global_';
/**
 * An immutable i32 global of {@link STATE_FLAG} bits: what a state reset cannot restore through the
 * JavaScript API, so it re-instantiates instead.
 */
export const FLAGS_EXPORT = '__basis_flags';
export const STATE_FLAG = {
  /** The code drops data or element segments (`data.drop`, `elem.drop`). */
  drops: 1,
  /** A mutable `v128` global, which JavaScript cannot read or write. */
  v128Global: 2,
} as const;

/** Export name of table `index`. */
export function tableExportName(index: number, element: number): string {
  return `${TABLE_EXPORT_PREFIX}${element === FUNCREF ? 'f' : 'e'}${index}`;
}

export { CHARGE_POINT_UNITS } from './costs.js';

