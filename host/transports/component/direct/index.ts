/*
 * The direct canonical-ABI call of our world's `handle` (see caller.ts and plan.ts). Not wired into
 * the transport yet.
 */
export { DirectCaller, type AbiViolation, type DirectCoreExports, type DirectOutcome } from './caller.js';
export { ImportGate, InnerComponentCall, PostReturnImportError } from './gate.js';
export { CoreInstances, bindDirectCall, type Bound, type InstantiateCore } from './instances.js';
export { DirectPlanSchema, planDirectCall, type CoreRef, type DirectPlan, type PlanResult } from './plan.js';
export { REQUEST, RESULT } from './layout.js';
