/**
 * Cedar hooks: a policy set decided by the official engine, `@cedar-policy/cedar-wasm` (an optional
 * peer dependency, loaded on first use).
 */
export { cedarTransport, type CedarTransport, type CedarOptions, type CedarInfo } from './transport.js';
export { policySetDigest, readCedarFiles, DEFAULT_MAX_FILE_BYTES, type CedarFiles } from './policy-set.js';
export { CEDAR_PACKAGE } from './engine.js';
