/**
 * CEL hooks: ordered rules over the request, evaluated in-process with `@marcbachmann/cel-js` (loaded
 * on first use), each bounded by CEL's cost limit; and CEL as a hook's `when` or `tools` entry.
 */
export { celTransport, type CelTransport, type CelOptions, type CelInfo } from './transport.js';
export { celFilter, celToolFilter, type CelFilterOptions } from './filter.js';
export { CelRule, CelRules } from './rules.js';
export { DEFAULT_COST_LIMIT } from './compile.js';
