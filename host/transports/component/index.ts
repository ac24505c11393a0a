/**
 * The WebAssembly component transport: hooks compiled to components exporting
 * `basis:hook/handler@1.0.0`, run sandboxed and metered (stopped at their deadline, memory capped per
 * component) — on the caller's thread (`metered`) or in worker threads (`worker`).
 *
 * Not exported on purpose: the worker entry and its messages, the sandbox's WASI implementation, the
 * cache layout, the binary patcher, the fuel meter and the unguarded benchmark baseline
 * (unguarded.ts) — internals that may change without notice.
 */
export { componentTransport, type ComponentTransport } from './transport.js';
export type { ComponentInfo } from './info.js';
export { inspectComponent, type ComponentInspection } from './inspect.js';
export { COMPONENT_DEFAULTS, type ComponentOptions, type ComponentGrants, type ComponentIsolation } from './options.js';
export { ALLOWED_IMPORTS, HANDLER_INTERFACE, SUPPORTED_HANDLER_MAJOR } from './world.js';
export { componentWorkers, type ComponentWorkers, type ComponentWorkersOptions } from './workers.js';
export { defaultCacheDir } from '../../engine/cache/cache.js';
