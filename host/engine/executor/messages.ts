import * as z from 'zod';
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

/** What a worker instantiates for one component slot: jco's glue, the instance's spec, the binding's data. */
export const SlotMessage = z.strictObject({
  type: z.literal('slot'),
  slot: z.number().int().nonnegative(),
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
});
export type SlotMessage = z.infer<typeof SlotMessage>;

/**
 * Caller → worker, first: its mailbox, and the slots known when it started (later ones arrive as
 * `slot` messages, taken from the port before the first job that names them).
 */
export const InitMessage = z.strictObject({
  type: z.literal('init'),
  /** This worker's mailbox (mailbox.ts): every job and its reply go through it after `ready`. */
  mailbox: z.instanceof(SharedArrayBuffer),
  slots: z.array(SlotMessage),
  /** How long the worker polls for the next job after a reply before it sleeps (µs; 0: it sleeps at once). */
  spinUs: z.number().int().nonnegative(),
});
export type InitMessage = z.infer<typeof InitMessage>;

/** Caller → worker: a call's arguments too large for the mailbox (the mailbox says "spilled"). */
export const InvokeMessage = z.strictObject({
  type: z.literal('invoke'),
  id: z.number().int(),
  bytes: z.instanceof(Uint8Array),
});
export type InvokeMessage = z.infer<typeof InvokeMessage>;

export const HostToWorker = z.discriminatedUnion('type', [InitMessage, SlotMessage, InvokeMessage]);
export type HostToWorker = z.infer<typeof HostToWorker>;

/** Worker → caller. Facts, not failures: what happened to the call (outcome.ts). */
export const WorkerToHost = z.discriminatedUnion('type', [
  /** The worker serves jobs (each slot is instantiated at its first job, or by a warm-up job). */
  z.strictObject({ type: z.literal('ready') }),
  /** The worker cannot start: the component in `slot` could not be instantiated (absent: the worker itself failed). */
  z.strictObject({ type: z.literal('init-failed'), message: z.string(), slot: z.number().int().nonnegative().optional() }),
  /** What job `id` came to: a call's outcome (its value still in the codec's JSON form), a program's output as an `ok` value. */
  z.strictObject({ type: z.literal('reply'), id: z.number().int(), outcome: OutcomeMessage }),
]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;

/** A worker's reply to one call. */
export type CallReply = Extract<WorkerToHost, { type: 'reply' }>;
