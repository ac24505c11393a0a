/*
 * Fast validators in front of zod (the arbiter). Each accepts only a strict, obviously valid subset
 * of what its schema accepts and returns what zod would return for it; anything else goes to zod,
 * which decides and words the error. test/perf/fast-validators.test.ts proves the agreement on a
 * generated corpus of valid and invalid values.
 *
 * Not wired in yet. To wire them (each a drop-in for the zod call it replaces):
 * - runner.ts `#validate`: `HookCall.safeParse(call)` → `parseHookCall(call)`;
 * - codec/wire.ts `checkResponse`: `HookResponse.safeParse(value)` → `parseHookResponse(value)`
 *   (the runner re-checks every transport's response through it);
 * - pool.ts `#onMessage`: `WorkerToHost.safeParse(raw)` → `parseWorkerToHost(raw)`;
 *   worker/entry.ts: `HostToWorker.safeParse(raw)` → `parseHostToWorker(raw)`;
 *   guest.ts `call`: `WitDecision.safeParse(answer)` → `fastWitDecision(answer)` first
 *   (host/transports/component/fast/messages.ts).
 */
export { FAST_JSON_MAX_DEPTH, isPlainJson } from './json.js';
export { fastHookCall, parseHookCall, type SafeParse } from './call.js';
export { fastHookResponse, parseHookResponse } from './response.js';
