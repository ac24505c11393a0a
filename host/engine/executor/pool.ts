import { Worker } from 'node:worker_threads';
import type { EngineOutcome } from '../outcome.js';
import type { Codec } from './codec.js';
import { aborted, type CallOptions, type Executor } from './executor.js';
import { parseWorkerToHost } from './fast-messages.js';
import type { CallReply, InitMessage } from './messages.js';
import { sourceWorkerEntry } from './from-source.js';
import { CallerMailbox, MailboxError, createMailboxBuffer } from './mailbox.js';

/** How a pool runs its guests. */
export interface PoolOptions<A, R> {
  /**
   * The worker's entry module: the embedder's, which calls `serveWorker` with its binding and codec
   * (a `.ts` URL when running from sources: bundled once per process, from-source.ts).
   */
  readonly entry: URL;
  /** What every worker is told to instantiate (each also gets its own mailbox). */
  readonly init: Omit<InitMessage, 'mailbox'>;
  /** How a call's arguments and result cross (the embedder's). */
  readonly codec: Codec<A, R>;
  /** Most workers (each with its own instance) for concurrent calls; at least one. */
  readonly maxWorkers: number;
  /** Deadline per call, from the moment a ready worker takes it (a call may be given a shorter one). */
  readonly deadlineMs: number;
  /**
   * After a call's deadline (answered at once), how long its worker may take to come back by itself —
   * its meter stops the guest a few ms after the deadline — before it is terminated and replaced.
   */
  readonly graceMs: number;
  /** Deadline for a worker to start and instantiate the component. */
  readonly startupTimeoutMs: number;
  /** JS heap cap per worker (wasm memory is capped on the module instead). */
  readonly heapMb: number;
}

interface Job<A, R> {
  readonly id: number;
  readonly args: A;
  /** This call's deadline (ms from when a worker takes it). */
  readonly deadlineMs: number;
  readonly settle: (outcome: EngineOutcome<R>) => void;
  slot?: Slot<A, R>;
}

interface Slot<A, R> {
  readonly worker: Worker;
  /** The per-call hop: requests and replies through shared memory (worker/mailbox.ts). */
  readonly mailbox: CallerMailbox;
  /** `draining`: its call was answered at the deadline; waiting for the worker to come back. */
  state: 'starting' | 'idle' | 'busy' | 'draining' | 'stopped';
  /** Has instantiated the component at least once. */
  everReady: boolean;
  job?: Job<A, R> | undefined;
  startTimer?: NodeJS.Timeout | undefined;
  /**
   * A spilled reply: the worker posts it, then hands the mailbox's turn back. The two reach this
   * thread in either order, and the reply may only be taken once the mailbox is the caller's again
   * (else the next call would find the mailbox still busy): whichever comes first waits here.
   */
  spilled?: { readonly reply: CallReply | undefined; readonly turnBack: boolean } | undefined;
}

/** A worker entry from dist/ runs as it is; one from the TypeScript sources (tests, tsx) is bundled first. */
function runnableEntry(entry: URL): URL {
  return entry.pathname.endsWith('.ts') ? sourceWorkerEntry(entry) : entry;
}

function timedOut(ms: number): EngineOutcome<never> {
  return { type: 'timeout', reason: 'deadline', phase: 'call', message: `the guest did not answer within its deadline (${ms} ms)`, logs: {} };
}

/**
 * Guest workers for one component. Each worker holds one metered instance and runs one call at a
 * time; calls queue for the next idle worker, and more workers start (up to `maxWorkers`) while calls
 * wait. A call goes to its worker through a SharedArrayBuffer mailbox (the request's bytes copied in,
 * the worker woken from `Atomics.wait`, the caller awaiting `Atomics.waitAsync`: no structured clone,
 * no message queue), falling back to `postMessage` for what does not fit. A call's deadline runs from
 * when a worker takes it: at the deadline the call is answered `timeout` at once; the worker's own
 * meter stops the guest moments later and the worker takes calls again — or, if it does not come back
 * within `graceMs`, it is terminated and replaced in the background. A worker whose instance was discarded makes a fresh one at its next call, within that
 * call's deadline (so a start function that never returns fails that call, not the pool). Workers are
 * unref'd: an idle pool does not keep the process alive. Nothing a worker writes to its stdout/stderr
 * reaches the host's: both are drained and dropped.
 */
export class WorkerPool<A, R> implements Executor<A, R> {
  readonly #options: PoolOptions<A, R>;
  readonly #entry: URL;
  readonly #slots = new Set<Slot<A, R>>();
  readonly #queue: Array<Job<A, R>> = [];
  readonly #readyWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #unavailable: string | undefined;
  #closed = false;
  #nextId = 1;

  constructor(options: PoolOptions<A, R>) {
    this.#options = options;
    this.#entry = runnableEntry(options.entry);
  }

  /** Start the first worker and wait for its instance. Rejects when the component cannot be instantiated. */
  warm(): Promise<void> {
    if (this.#unavailable !== undefined) return Promise.reject(new Error(this.#unavailable));
    if ([...this.#slots].some((s) => s.state === 'idle' || s.state === 'busy')) return Promise.resolve();
    const ready = new Promise<void>((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
    if (this.#slots.size === 0) this.#spawn();
    return ready;
  }

  /** Run one call. Always resolves: every way a call can end is an {@link EngineOutcome}. */
  invoke(args: A, options?: CallOptions): Promise<EngineOutcome<R>> {
    if (this.#closed) return Promise.resolve(aborted('the executor is closed'));
    if (this.#unavailable !== undefined) return Promise.resolve({ type: 'load-failure', message: this.#unavailable, logs: {} });
    const signal = options?.signal;
    const own = this.#options.deadlineMs;
    const deadlineMs = options?.deadlineMs === undefined ? own : Math.max(1, Math.min(own, Math.ceil(options.deadlineMs)));
    return new Promise<EngineOutcome<R>>((resolve) => {
      let settled = false;
      const onAbort = (): void => this.#abort(job, 'the call was aborted');
      const job: Job<A, R> = {
        id: this.#nextId++,
        args,
        deadlineMs,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      if (signal?.aborted === true) {
        job.settle(aborted('the call was aborted'));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  /** Stop every worker; calls still waiting or running end `aborted`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.settle(aborted('the executor was closed'));
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(new Error('the executor was closed'));
    await Promise.all([...this.#slots].map((slot) => this.#stop(slot, aborted('the executor was closed'))));
  }

  #spawn(): void {
    const worker = new Worker(this.#entry, {
      execArgv: [],
      // The guest never sees the host's environment; neither does the worker around it.
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.#options.heapMb },
      name: 'basis-hooks-guest',
    });
    worker.unref();
    // Drained and dropped: nothing in a guest worker may write to the host's stdout or stderr.
    worker.stdout.resume();
    worker.stderr.resume();
    const buffer = createMailboxBuffer();
    const slot: Slot<A, R> = { worker, mailbox: new CallerMailbox(buffer), state: 'starting', everReady: false };
    this.#slots.add(slot);
    this.#armStartup(slot);
    worker.on('message', (raw: unknown) => this.#onMessage(slot, raw));
    worker.on('error', (error: Error) => this.#onDeath(slot, error));
    worker.on('exit', (code: number) => this.#onDeath(slot, new Error(`the guest worker exited with code ${code}`)));
    const init: InitMessage = { ...this.#options.init, mailbox: buffer };
    worker.postMessage(init);
  }

  #armStartup(slot: Slot<A, R>): void {
    slot.startTimer = setTimeout(() => {
      this.#failStart(slot, `the component did not instantiate within ${this.#options.startupTimeoutMs} ms`);
    }, this.#options.startupTimeoutMs);
  }

  #onMessage(slot: Slot<A, R>, raw: unknown): void {
    if (slot.state === 'stopped') return;
    const parsed = parseWorkerToHost(raw);
    if (!parsed.success) {
      this.#onDeath(slot, new Error(`the guest worker sent an invalid message: ${parsed.error.message}`));
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        if (slot.startTimer !== undefined) clearTimeout(slot.startTimer);
        slot.state = 'idle';
        slot.everReady = true;
        for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
        this.#dispatch();
        return;
      case 'init-failed':
        this.#failStart(slot, message.message);
        return;
      default:
        // A reply too large for the mailbox: taken once the mailbox has said "spilled" too.
        if (slot.spilled?.turnBack === true) {
          slot.spilled = undefined;
          this.#replied(slot, message);
        } else slot.spilled = { reply: message, turnBack: false };
    }
  }

  /** The mailbox said the reply was spilled (its turn is back with this thread): take the reply if it is here. */
  #turnBack(slot: Slot<A, R>): void {
    const reply = slot.spilled?.reply;
    if (reply === undefined) {
      slot.spilled = { reply: undefined, turnBack: true };
      return;
    }
    slot.spilled = undefined;
    this.#replied(slot, reply);
  }

  /** A worker answered its call (through the mailbox or, spilled, by message). */
  #replied(slot: Slot<A, R>, reply: CallReply): void {
    if (slot.state === 'draining') {
      // The call it ran was answered at its deadline; the worker is back.
      slot.job = undefined;
      slot.state = 'idle';
      this.#dispatch();
      return;
    }
    const job = slot.job;
    if (slot.state !== 'busy' || job === undefined || job.id !== reply.id) return;
    const outcome = this.#outcome(reply);
    if (outcome === undefined) {
      this.#onDeath(slot, new MailboxError(`the guest worker's result for call ${reply.id} is not a result of this call's type`));
      return;
    }
    slot.job = undefined;
    job.settle(outcome);
    slot.state = 'idle';
    this.#dispatch();
  }

  /** The reply's outcome with its value decoded by the codec (undefined: not a value of the call's type). */
  #outcome(reply: CallReply): EngineOutcome<R> | undefined {
    const outcome = reply.outcome;
    if (outcome.type !== 'ok') return outcome;
    const value = this.#options.codec.resultFromJson(outcome.value);
    return value === undefined ? undefined : { type: 'ok', value, logs: outcome.logs };
  }

  /** Take what the mailbox says, when the worker answered (true); false when the wait timed out. */
  #arrived(slot: Slot<A, R>, id: number, reply: Awaited<ReturnType<CallerMailbox['waitReply']>>): boolean {
    if (reply === 'timeout') return false;
    if (reply === 'spilled') {
      this.#turnBack(slot);
      return true;
    }
    const parsed = parseWorkerToHost(reply.json);
    if (!parsed.success || parsed.data.type !== 'reply' || parsed.data.id !== id) {
      throw new MailboxError(`mailbox: the reply is not the reply to call ${id}${parsed.success ? '' : `: ${parsed.error.message}`}`);
    }
    this.#replied(slot, parsed.data);
    return true;
  }

  /**
   * Wait for the worker's answer to `job`: at most the deadline, then (the call answered `timeout`)
   * the grace period for the worker to come back by itself, after which it is replaced.
   */
  async #awaitReply(slot: Slot<A, R>, job: Job<A, R>): Promise<void> {
    try {
      const reply = await slot.mailbox.waitReply(job.id, job.deadlineMs);
      if (slot.state === 'stopped' || this.#arrived(slot, job.id, reply)) return;
      // Answer at the deadline. The worker's meter stops the guest just after it; if the worker is not
      // back within the grace period, it is replaced in the background.
      job.settle(timedOut(job.deadlineMs));
      if (slot.state !== 'busy' || slot.job !== job) return;
      slot.state = 'draining';
      this.#dispatch();
      const late = await slot.mailbox.waitReply(job.id, this.#options.graceMs);
      if (slot.state !== 'draining' || this.#arrived(slot, job.id, late)) return;
      void this.#stop(slot, timedOut(job.deadlineMs));
      this.#replenish();
    } catch (error) {
      // A reply that breaks the mailbox's layout: not our worker any more.
      this.#onDeath(slot, error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A worker that cannot instantiate the component: no worker can. Every waiting call fails. */
  #failStart(slot: Slot<A, R>, message: string): void {
    this.#unavailable = message;
    void this.#stop(slot, { type: 'load-failure', message, logs: {} });
    for (const job of this.#queue.splice(0)) job.settle({ type: 'load-failure', message, logs: {} });
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(new Error(message));
  }

  #onDeath(slot: Slot<A, R>, error: Error): void {
    if (slot.state === 'stopped') return;
    const outOfMemory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    if (!slot.everReady) {
      // A worker that never came up (bad entry, a start function that kills it): none will.
      this.#failStart(slot, `the guest worker failed to start: ${error.message}`);
      return;
    }
    const message = `the guest worker died: ${error.message}`;
    void this.#stop(slot, outOfMemory ? { type: 'limit', what: 'memory', message, logs: {} } : { type: 'trap', kind: 'crash', message, memoryAtLimit: false, logs: {} });
    this.#replenish();
  }

  /** Terminate a worker (without waiting to answer its call: `reply` goes out now) and forget it. */
  async #stop(slot: Slot<A, R>, reply: EngineOutcome<R>): Promise<void> {
    if (slot.state === 'stopped') return;
    slot.state = 'stopped';
    if (slot.startTimer !== undefined) clearTimeout(slot.startTimer);
    this.#slots.delete(slot);
    const job = slot.job;
    slot.job = undefined;
    job?.settle(reply);
    await slot.worker.terminate().catch(() => undefined);
  }

  #abort(job: Job<A, R>, why: string): void {
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
      job.settle(aborted(why));
      return;
    }
    if (job.slot !== undefined && job.slot.job === job) {
      void this.#stop(job.slot, aborted(why));
      this.#replenish();
    }
  }

  #run(slot: Slot<A, R>, job: Job<A, R>): void {
    slot.state = 'busy';
    slot.job = job;
    job.slot = slot;
    const codec = this.#options.codec;
    if (!slot.mailbox.post(job.id, (into) => codec.encodeArgs(job.args, into), job.deadlineMs)) {
      // Too large for the mailbox: by message, the mailbox keeping the turn (the worker takes it from its port).
      const buffer = new Uint8Array(codec.maxArgsBytes(job.args));
      const length = codec.encodeArgs(job.args, buffer);
      slot.worker.postMessage({ type: 'invoke', id: job.id, bytes: buffer.subarray(0, Math.max(0, length)) });
      slot.mailbox.postSpilled(job.id, job.deadlineMs);
    }
    void this.#awaitReply(slot, job);
  }

  /** Keep one worker warm after one was stopped, so the next call does not pay a cold start. */
  #replenish(): void {
    if (this.#closed || this.#unavailable !== undefined) return;
    if (this.#slots.size === 0) this.#spawn();
    this.#dispatch();
  }

  #dispatch(): void {
    if (this.#closed || this.#unavailable !== undefined) return;
    while (this.#queue.length > 0) {
      const idle = [...this.#slots].find((s) => s.state === 'idle');
      if (idle === undefined) break;
      const job = this.#queue.shift();
      if (job !== undefined) this.#run(idle, job);
    }
    const starting = [...this.#slots].filter((s) => s.state === 'starting').length;
    let missing = this.#queue.length - starting;
    while (missing > 0 && this.#slots.size < this.#options.maxWorkers) {
      this.#spawn();
      missing--;
    }
  }
}
