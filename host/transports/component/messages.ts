import { z } from 'zod';
import { WitDecision, WitHookRequest } from '../../codec/wit.js';
import { DirectPlanSchema } from './direct/plan.js';
import { Wasm } from './wasm-api.js';

/*
 * Everything that crosses between the host and a guest worker: one discriminated union each way,
 * validated on arrival on both sides. A message that does not parse is a bug (ours, or a worker
 * that is not ours) and ends that worker.
 */

const Logs = z.strictObject({ stdout: z.string().optional(), stderr: z.string().optional() });

/** Host → worker, first: what to instantiate and how. */
export const InitMessage = z.strictObject({
  type: z.literal('init'),
  /** `data:` URL of jco's glue: the bytes the cache verified, so nothing can be swapped in on disk. */
  glueUrl: z.string().startsWith('data:text/javascript;base64,'),
  /** The handler export's key in the glue's exports, e.g. `basis:hook/handler@1.0.0`. */
  handler: z.string(),
  /** Compiled (instrumented) core modules by the name the glue asks for (compiled once, in the host). */
  modules: z.record(z.string(), z.instanceof(Wasm.Module)),
  /** The guest's answer is refused in the worker, before it crosses, when it is larger than this. */
  maxOutputBytes: z.number().int().positive(),
  sandbox: z.strictObject({
    env: z.array(z.tuple([z.string(), z.string()])),
    readOnlyDirs: z.array(z.tuple([z.string(), z.string()])),
    maxLogBytes: z.number().int().nonnegative(),
  }),
  limits: z.strictObject({
    timeoutMs: z.number().int().positive(),
    loadTimeoutMs: z.number().int().positive(),
    fuel: z.number().int().positive().optional(),
    memoryBytes: z.number().int().positive(),
  }),
  state: z.enum(['per_call', 'per_tenant', 'shared']),
  /** How to call `handle` without jco's glue (planned once, in the host); absent: through the glue. */
  direct: DirectPlanSchema.optional(),
  /** This worker's mailbox (worker/mailbox.ts): every call and its reply go through it after `ready`. */
  mailbox: z.instanceof(SharedArrayBuffer),
});
export type InitMessage = z.infer<typeof InitMessage>;

/** Host → worker: call `handle` once (only for a request too large for the mailbox: see worker/mailbox.ts). */
export const InvokeMessage = z.strictObject({
  type: z.literal('invoke'),
  id: z.number().int(),
  request: WitHookRequest,
});
export type InvokeMessage = z.infer<typeof InvokeMessage>;

export const HostToWorker = z.discriminatedUnion('type', [InitMessage, InvokeMessage]);
export type HostToWorker = z.infer<typeof HostToWorker>;

/**
 * Worker → host. Facts, not failure codes: the worker says what happened (a decision, an `err`, a
 * trap and whether memory was exhausted...) and the transport maps that to the contract's failures
 * in one place (failures.ts).
 */
export const WorkerToHost = z.discriminatedUnion('type', [
  /** The first instance is ready for a call. */
  z.strictObject({ type: z.literal('ready') }),
  /** The component could not be instantiated: the worker is useless. */
  z.strictObject({ type: z.literal('init-failed'), message: z.string() }),
  /** `handle` returned `ok(decision)`. */
  z.strictObject({ type: z.literal('result'), id: z.number().int(), decision: WitDecision, logs: Logs }),
  /** `handle` returned `err(message)`. */
  z.strictObject({ type: z.literal('guest-error'), id: z.number().int(), message: z.string(), logs: Logs }),
  /** The answer was larger than `maxOutputBytes`; it was not sent. */
  z.strictObject({ type: z.literal('too-large'), id: z.number().int(), bytes: z.number().int(), logs: Logs }),
  /**
   * The call threw: a trap, a stack overflow, an ABI violation caught by the glue, or `wasi:cli/exit`.
   * The instance has been discarded; the next call makes a fresh one.
   */
  z.strictObject({
    type: z.literal('trap'),
    id: z.number().int(),
    kind: z.enum(['trap', 'stack-overflow', 'exit', 'abi']),
    message: z.string(),
    /** The guest was refused memory (its cap) in this call: the likely cause is exhaustion. */
    memoryAtLimit: z.boolean(),
    logs: Logs,
  }),
  /**
   * The meter stopped the guest — at its deadline, or when an explicit fuel ran out — while it ran or
   * while it was being instantiated. The instance has been discarded.
   */
  z.strictObject({
    type: z.literal('stopped'),
    id: z.number().int(),
    reason: z.enum(['deadline', 'fuel']),
    phase: z.enum(['call', 'instantiate']),
    message: z.string(),
    logs: Logs,
  }),
  /** The guest went past its memory cap when instantiated, held too many WASI resources, or passed a host call more than it takes (sandbox/host-calls.ts). */
  z.strictObject({ type: z.literal('limit'), id: z.number().int(), what: z.enum(['memory', 'resources', 'host-call']), message: z.string(), logs: Logs }),
  /** What the guest returned is not a valid answer (a string that is not valid UTF-8). */
  z.strictObject({ type: z.literal('malformed'), id: z.number().int(), message: z.string(), logs: Logs }),
  /** A fresh instance could not be made for the call, for a reason that will not change. */
  z.strictObject({ type: z.literal('refused'), id: z.number().int(), message: z.string() }),
]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;

/** A worker's reply to one invoke. */
export type CallReply = Extract<WorkerToHost, { id: number }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What one call came to, without the id that pairs a worker's reply with its invoke. */
export type CallOutcome = DistributiveOmit<CallReply, 'id'>;
