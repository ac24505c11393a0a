import { z } from 'zod';
import { StatePolicy, Limits } from '../limits.js';
import { DirectPlanSchema } from '../instance/plan.js';
import { OutcomeMessage } from '../outcome.js';
import { Wasm } from '../wasm-api.js';

/*
 * Everything that crosses between the caller and a worker: one discriminated union each way,
 * validated on arrival on both sides. A message that does not parse is a bug (ours, or a worker that
 * is not ours) and ends that worker. What is inside a call — its arguments' bytes, its result's value —
 * is the embedder's codec's, validated by it.
 */

/** The WASI config, as it crosses (resolved grants: see wasi/index.ts). */
const WasiConfigMessage = z.strictObject({
  env: z.array(z.tuple([z.string(), z.string()])),
  readOnlyDirs: z.array(z.tuple([z.string(), z.string()])),
  maxLogBytes: z.number().int().nonnegative(),
});

/** Caller → worker, first: what to instantiate and how. */
export const InitMessage = z.strictObject({
  type: z.literal('init'),
  /** `data:` URL of jco's glue: the bytes the cache verified, so nothing can be swapped in on disk. */
  glueUrl: z.string().startsWith('data:text/javascript;base64,'),
  spec: z.strictObject({
    /** Compiled (instrumented) core modules by the name the glue asks for (compiled once, by the caller). */
    modules: z.record(z.string(), z.instanceof(Wasm.Module)),
    wasi: WasiConfigMessage,
    limits: Limits,
    state: StatePolicy,
    /** How to call the export without jco's glue (planned once, by the caller); absent: through the glue. */
    direct: DirectPlanSchema.optional(),
    typeOnly: z.array(z.string()).optional(),
  }),
  /** What the embedder's binding is made from: its factory validates it. */
  binding: z.unknown(),
  /** This worker's mailbox (mailbox.ts): every call and its reply go through it after `ready`. */
  mailbox: z.instanceof(SharedArrayBuffer),
});
export type InitMessage = z.infer<typeof InitMessage>;

/** Caller → worker: a call's arguments too large for the mailbox (the mailbox says "spilled"). */
export const InvokeMessage = z.strictObject({
  type: z.literal('invoke'),
  id: z.number().int(),
  bytes: z.instanceof(Uint8Array),
});
export type InvokeMessage = z.infer<typeof InvokeMessage>;

export const HostToWorker = z.discriminatedUnion('type', [InitMessage, InvokeMessage]);
export type HostToWorker = z.infer<typeof HostToWorker>;

/** Worker → caller. Facts, not failures: what happened to the call (outcome.ts). */
export const WorkerToHost = z.discriminatedUnion('type', [
  /** The first instance is ready for a call. */
  z.strictObject({ type: z.literal('ready') }),
  /** The component could not be instantiated: the worker is useless. */
  z.strictObject({ type: z.literal('init-failed'), message: z.string() }),
  /** What call `id` came to (its value still in the codec's JSON form). */
  z.strictObject({ type: z.literal('reply'), id: z.number().int(), outcome: OutcomeMessage }),
]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;

/** A worker's reply to one call. */
export type CallReply = Extract<WorkerToHost, { type: 'reply' }>;
