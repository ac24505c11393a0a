import type { CallMeter } from '../meter/call-meter.js';

/**
 * Every function in a core instance's import object that is host code (not a wasm export of an
 * instance made before), wrapped so its time counts against the call's deadline.
 */
export function meterImports(imports: Readonly<Record<string, unknown>> | undefined, wasmFunctions: ReadonlySet<unknown>, meter: CallMeter): Record<string, unknown> | undefined {
  if (imports === undefined) return undefined; // the glue passes none to a module without imports
  const out: Record<string, unknown> = {};
  for (const [namespace, value] of Object.entries(imports)) {
    if (value === null || typeof value !== 'object') {
      out[namespace] = value;
      continue;
    }
    const wrapped: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      wrapped[name] = typeof item === 'function' && !wasmFunctions.has(item) ? meter.wrap(item as (...args: never[]) => unknown) : item;
    }
    out[namespace] = wrapped;
  }
  return out;
}
