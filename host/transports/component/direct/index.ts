/*
 * The direct canonical-ABI call of our world's `handle` (caller.ts), its discovery from jco's glue
 * (plan.ts), the record of core instances it binds to (instances.ts) and the post-return import gate
 * (gate.ts). Not wired into the transport yet. To wire it:
 *
 * 1. Plan once per component, at load (loader.ts / transport.ts): read the glue file
 *    (`fileURLToPath(component.glueUrl)`) and `planDirectCall(source, info.handler, modules)`. A plan
 *    is plain data (`DirectPlanSchema`): put it in `GuestSpec` and in the worker's `InitMessage`
 *    (`direct: DirectPlanSchema.optional()`); `ok: false` → leave it out (the glue path, as today).
 * 2. Bind per instance, in `GuestInstance.restart()` (guest.ts): `const instances = new
 *    CoreInstances(new ImportGate())`; pass `instances.wrap(<today's instantiateCore callback>)` to
 *    `glue.instantiate`; after it, `bindDirectCall(plan, instances, spec.modules)` → keep
 *    `bound.caller` in `Live` (`ok: false` → glue for this component, and say so once).
 * 3. Call, in `GuestInstance.call()` (guest.ts), inside today's try/catch (after the fuel refill):
 *    `live.direct.call(request, spec.maxOutputBytes)` → `ok` → `{ type: 'result', decision }`;
 *    `err` → `guest-error`; `too-large` → `too-large`; `abi` → discard the instance and fail:
 *    violation `utf8` as `malformed_response` (what invalid UTF-8 on a subprocess's stdout is; it
 *    needs a reply variant, e.g. `{ type: 'malformed' }`, mapped in failures.ts), the others as
 *    `{ type: 'trap', kind: 'abi' }`; `needs-glue` → discard, restart, run this call through
 *    `live.handle` (the glue) and use the glue for this component from then on. An exception stays
 *    what it is today (trap / out-of-fuel / exit classification unchanged; the caller is unusable).
 */
export { DirectCaller, type AbiViolation, type DirectCoreExports, type DirectOutcome } from './caller.js';
export { ImportGate, InnerComponentCall, PostReturnImportError } from './gate.js';
export { CoreInstances, bindDirectCall, type Bound, type InstantiateCore } from './instances.js';
export { DirectPlanSchema, planDirectCall, type CoreRef, type DirectPlan, type PlanResult } from './plan.js';
export { REQUEST, RESULT } from './layout.js';
