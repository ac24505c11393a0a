/*
 * The direct canonical-ABI call of our world's `handle` (caller.ts), its discovery from jco's glue
 * (plan.ts), the record of core instances it binds to (instances.ts) and the post-return import gate
 * (gate.ts). How the transport uses them:
 *
 * 1. Plan once per component, at load (transport.ts): `planDirectCall(glueSource, handler, modules)`.
 *    A plan is plain data (`DirectPlanSchema`): it goes in `GuestSpec` and in each worker's
 *    `InitMessage`; `ok: false` (or `direct_call: false`) leaves it out — the glue path.
 * 2. Bind per instance (guest.ts `#instantiate`): the glue instantiates through a `CoreInstances`
 *    with an `ImportGate` around every host import; `bindDirectCall` then makes the caller, or says the
 *    component does not fit the plan after all (the glue from then on).
 * 3. Call (guest.ts `#call`): `ok`, `err`, `too-large` become the call's outcome; `abi` discards the
 *    instance (`utf8` is `malformed_response`, as invalid UTF-8 from a subprocess; the rest a `trap`
 *    of kind `abi`); `needs-glue` discards it and runs the call again through the glue on a fresh
 *    instance, within the same deadline, and the component keeps the glue. An exception is what it is
 *    through the glue (trap, stop, exit), and the caller refuses further calls.
 */
export { DirectCaller, type AbiViolation, type DirectCoreExports, type DirectOutcome } from './direct-caller.js';
export { ImportGate, InnerComponentCall, PostReturnImportError } from './gate.js';
export { CoreInstances, bindDirectCall, type Bound, type InstantiateCore } from './core-instances.js';
export { DirectPlanSchema, planDirectCall, type CoreRef, type DirectPlan, type PlanResult } from './plan.js';
export { REQUEST, RESULT } from '../../transports/component/layout.js';
