import * as z from 'zod';

/**
 * What one call of an instance came to — the engine's only vocabulary for it, as data. The embedder
 * (the hook adapter) maps it to its own failures in one place.
 *
 * - `ok`: the export returned; `value` is what the binding lifted (its `err(...)` included: that is a
 *   value of the export's result type, not a failure of the engine).
 * - `trap`: the guest (or the host on its behalf) could not go on: a WebAssembly trap, a stack
 *   overflow, `wasi:cli/exit`, a broken canonical ABI (`violation` says which rule), or the worker
 *   that held the instance died (`crash`). `memoryAtLimit`: a grow was refused for the memory cap in
 *   this call, the likely cause.
 * - `timeout`: stopped at the deadline or when its fuel ran out, while it ran or while it was being
 *   instantiated; or the call was given up (`aborted`).
 * - `limit`: over a limit that is not time: the memory cap at instantiation (or a worker's heap), the
 *   resources it may hold, what one host call may take, the size of the result.
 * - `load-failure`: no instance can be made for the call, for a reason that will not change.
 *
 * Every outcome of a call that ran carries what the guest wrote to stdout and stderr (capped).
 */
export type EngineOutcome<R> =
  | { readonly type: 'ok'; readonly value: R; readonly logs: EngineLogs }
  | { readonly type: 'trap'; readonly kind: TrapKind; readonly violation?: AbiViolationKind | undefined; readonly message: string; readonly memoryAtLimit: boolean; readonly logs: EngineLogs }
  | { readonly type: 'timeout'; readonly reason: TimeoutReason; readonly phase: 'call' | 'instantiate'; readonly message: string; readonly logs: EngineLogs }
  | { readonly type: 'limit'; readonly what: LimitKind; readonly message: string; readonly bytes?: number | undefined; readonly logs: EngineLogs }
  | { readonly type: 'load-failure'; readonly message: string; readonly logs: EngineLogs };

/** What the guest wrote during the call, capped; a stream it did not write to is absent. */
export const EngineLogs = z.strictObject({ stdout: z.string().optional(), stderr: z.string().optional() });
export type EngineLogs = z.infer<typeof EngineLogs>;

export const TRAP_KINDS = ['trap', 'stack-overflow', 'exit', 'abi', 'crash'] as const;
export type TrapKind = (typeof TRAP_KINDS)[number];

/** Which canonical-ABI rule a guest broke (`abi` traps). */
export const ABI_VIOLATIONS = ['bounds', 'alignment', 'discriminant', 'utf8', 'post-return-import'] as const;
export type AbiViolationKind = (typeof ABI_VIOLATIONS)[number];

export const TIMEOUT_REASONS = ['deadline', 'fuel', 'aborted'] as const;
export type TimeoutReason = (typeof TIMEOUT_REASONS)[number];

export const LIMIT_KINDS = ['memory', 'resources', 'host-call', 'result'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** What a call that wrote nothing took: one frozen object, not a fresh one per call. */
export const NO_LOGS: EngineLogs = Object.freeze({});

/**
 * An outcome as it crosses a worker boundary: the same union with the value left to the binding's
 * codec (validated there).
 */
export const OutcomeMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ok'), value: z.unknown(), logs: EngineLogs }),
  z.strictObject({ type: z.literal('trap'), kind: z.enum(TRAP_KINDS), violation: z.enum(ABI_VIOLATIONS).optional(), message: z.string(), memoryAtLimit: z.boolean(), logs: EngineLogs }),
  z.strictObject({ type: z.literal('timeout'), reason: z.enum(TIMEOUT_REASONS), phase: z.enum(['call', 'instantiate']), message: z.string(), logs: EngineLogs }),
  z.strictObject({ type: z.literal('limit'), what: z.enum(LIMIT_KINDS), message: z.string(), bytes: z.number().int().nonnegative().optional(), logs: EngineLogs }),
  z.strictObject({ type: z.literal('load-failure'), message: z.string(), logs: EngineLogs }),
]);
export type OutcomeMessage = z.infer<typeof OutcomeMessage>;
