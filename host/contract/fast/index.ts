/*
 * Fast validators in front of zod (the arbiter). Each accepts only a strict, obviously valid subset
 * of what its schema accepts and returns what zod would return for it; anything else goes to zod,
 * which decides and words the error. test/perf/fast-validators.test.ts proves the agreement on a
 * generated corpus of valid and invalid values.
 *
 * Where they stand: the runner's call check (runner/validate-call.ts), every response check
 * (codec/wire.ts `checkResponse`), the worker messages (component pool and worker entry) and the
 * mailbox.
 */
export { FAST_JSON_MAX_DEPTH, copyPlainJson, isPlainJson } from './json.js';
export { fastHookCall, parseHookCall, type SafeParse } from './call.js';
export { fastHookResponse, parseHookResponse } from './response.js';
