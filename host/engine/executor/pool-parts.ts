import { Worker } from 'node:worker_threads';
import type { EngineOutcome } from '../outcome.js';
import type { Codec } from './codec.js';
import { sourceWorkerEntry } from './from-source.js';
import type { CallerMailbox, JobHeader } from './mailbox.js';
import type { CallReply, SlotMessage } from './messages.js';

/* The pool's parts: its options, its jobs and workers, and how a worker starts (pool.ts runs them). */

/** How a pool runs its guests. */
export interface PoolOptions<A, R> {
  /**
   * The worker's entry module: the embedder's, which calls `serveWorker` with its binding, codec and
   * program (a `.ts` URL when running from sources: bundled once per process, from-source.ts).
   */
  readonly entry: URL;
  /** How a call's arguments and result cross (the embedder's). */
  readonly codec: Codec<A, R>;
  /** Most workers (each holds an instance of every component of the pool) for concurrent jobs; at least one. */
  readonly maxWorkers: number;
  /**
   * After a job's deadline (answered at once), how long its worker may take to come back by itself —
   * its meter stops the guest a few ms after the deadline — before it is terminated and replaced.
   */
  readonly graceMs: number;
  /** Deadline for a worker to start and instantiate its components. */
  readonly startupTimeoutMs: number;
  /** JS heap cap per worker (wasm memory is capped on the modules instead); a function is asked at each start. */
  readonly heapMb: number | (() => number);
  /** Close the pool when its last component leaves (a pool of one hook's own). */
  readonly closeWhenEmpty?: boolean;
  /** How long a worker polls for its next job after a reply before it sleeps (µs; default 0). */
  readonly spinUs?: number;
  /**
   * How long the caller polls for a job's reply before it awaits it (µs, never past the job's
   * deadline; default 0). Blocks the caller's thread meanwhile: a reply within it costs no wake-up
   * of that thread and is answered without a promise.
   */
  readonly callerSpinUs?: number;
}

/** A component the pool runs: what each worker instantiates for it, and its calls' deadline. */
export interface PoolComponent {
  readonly slot: Omit<SlotMessage, 'type' | 'slot'>;
  /** Deadline per call (ms from when a worker takes it); a call may be given a shorter one. */
  readonly deadlineMs: number;
}

/** What a program job came to: its output (the embedder validates it), or why there is none. */
export type ProgramResult = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly outcome: EngineOutcome<never>; readonly callsStarted: number };

export interface Job {
  readonly id: number;
  readonly header: JobHeader;
  /** Writes the job's bytes (null: a job with none); `size` bounds what it may write. */
  readonly write: ((into: Uint8Array) => number) | null;
  readonly size: number;
  readonly settle: (outcome: EngineOutcome<unknown>, callsStarted: number) => void;
  worker?: Hand;
}

/** One worker thread. */
export interface Hand {
  readonly worker: Worker;
  /** The per-job hop: requests and replies through shared memory (mailbox.ts). */
  readonly mailbox: CallerMailbox;
  /** `draining`: its job was answered at the deadline; waiting for the worker to come back. */
  state: 'starting' | 'idle' | 'busy' | 'draining' | 'stopped';
  everReady: boolean;
  /** The components it was told about. */
  readonly knows: Set<number>;
  job?: Job | undefined;
  startTimer?: NodeJS.Timeout | undefined;
  /**
   * A spilled reply: the worker posts it, then hands the mailbox's turn back. The two reach this
   * thread in either order, and the reply may only be taken once the mailbox is the caller's again.
   */
  spilled?: { readonly reply: CallReply | undefined; readonly turnBack: boolean } | undefined;
}

/** A worker entry from dist/ runs as it is; one from the TypeScript sources (tests, tsx) is bundled first. */
export function runnableEntry(entry: URL): URL {
  return entry.pathname.endsWith('.ts') ? sourceWorkerEntry(entry) : entry;
}

/** A call's outcome with its value from the codec's JSON form, validated (a value that is not one: a crash). */
export function callResult<R>(codec: Codec<unknown, R>, outcome: EngineOutcome<unknown>): EngineOutcome<R> {
  if (outcome.type !== 'ok') return outcome;
  const value = codec.resultFromJson(outcome.value);
  return value === undefined ? { type: 'trap', kind: 'crash', message: 'the guest worker answered with a result that is not of this call\'s type', memoryAtLimit: false, logs: {} } : { type: 'ok', value, logs: outcome.logs };
}

export function timedOut(ms: number): EngineOutcome<never> {
  return { type: 'timeout', reason: 'deadline', phase: 'call', message: `the guest did not answer within its deadline (${ms} ms)`, logs: {} };
}

/**
 * Start a guest worker on `entry`: no environment, no inherited flags, its JS heap capped at
 * `heapMb`; unref'd (an idle pool does not keep the process alive), and its stdout and stderr drained
 * and dropped — nothing in a guest worker may write to the host's.
 */
export function startWorker(entry: URL, heapMb: number): Worker {
  const worker = new Worker(entry, {
    execArgv: [],
    // The guest never sees the host's environment; neither does the worker around it.
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    name: 'basis-hooks-guest',
  });
  worker.unref();
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}
