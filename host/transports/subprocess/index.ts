/**
 * The subprocess transport: classic stdin/stdout hooks. Internals (capture, process-group signalling,
 * the per-call process driver) are deliberately not exported.
 */
export { subprocessTransport } from './transport.js';
export { SUBPROCESS_DEFAULTS, type SubprocessOptions } from './options.js';
export { DIALECT_NAMES, type DialectName } from './dialect/index.js';
