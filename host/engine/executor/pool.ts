import type { EngineOutcome } from '../outcome.js';
import { aborted, type CallOptions } from './executor.js';
import { parseWorkerToHost } from './fast-messages.js';
import { CallerMailbox, JobKind, MailboxError, createMailboxBuffer, type JobHeader } from './mailbox.js';
import type { CallReply, InitMessage, SlotMessage } from './messages.js';
import { PoolExecutor, type PoolSlots } from './pool-executor.js';
import { PollBackoff } from './poll-backoff.js';
import { callResult, runnableEntry, startWorker, timedOut, type Hand, type Job, type PoolComponent, type PoolOptions, type ProgramResult } from './pool-parts.js';

export { PoolExecutor } from './pool-executor.js';
export type { PoolComponent, PoolOptions, ProgramResult } from './pool-parts.js';

type Submitted = { readonly outcome: EngineOutcome<unknown>; readonly callsStarted: number };

const encoder = new TextEncoder();

/**
 * Guest workers for one or more components. Each worker holds an instance of every component of the
 * pool and runs one job at a time — one call, or a program (several calls in one hop: the hook
 * adapter runs consecutive hooks of a chain so); jobs queue for the next idle worker, and more workers
 * start (up to `maxWorkers`) while jobs wait. A job goes to its worker through a SharedArrayBuffer
 * mailbox (its bytes copied in, the worker woken from `Atomics.wait` — or found still polling, with
 * `spinUs` — the caller awaiting `Atomics.waitAsync`: no structured clone, no message queue),
 * falling back to `postMessage` for what does not fit. A job's deadline runs from when a worker takes
 * it: at the deadline it is answered `timeout` at once; the worker's own meters stop the guest moments
 * later and the worker takes jobs again — or, if it does not come back within `graceMs`, it is
 * terminated and replaced in the background (every component's instance in it goes too; the next
 * worker makes fresh ones). Workers are unref'd: an idle pool does not keep the process alive. Nothing
 * a worker writes to its stdout/stderr reaches the host's: both are drained and dropped.
 */
export class WorkerPool<A, R> implements PoolSlots<A, R> {
  readonly #options: PoolOptions<A, R>;
  readonly #entry: URL;
  readonly #hands = new Set<Hand>();
  readonly #components = new Map<number, PoolComponent>();
  /** Components that no worker could instantiate, with why. */
  readonly #unavailable = new Map<number, string>();
  readonly #queue: Job[] = [];
  #nextSlot = 0;
  #nextId = 1;
  #jobsRun = 0;
  #closed = false;
  readonly #callerSpinUs: number;
  readonly #backoff = new PollBackoff();
  /** The codec's reader of a call's result bytes (mailbox.ts `reply ok`), if it writes them. */
  readonly #decodeOk: ((bytes: Uint8Array) => unknown) | undefined;

  constructor(options: PoolOptions<A, R>) {
    this.#options = options;
    this.#entry = runnableEntry(options.entry);
    this.#callerSpinUs = options.callerSpinUs ?? 0;
    this.#decodeOk = options.codec.decodeResult?.bind(options.codec);
  }

  /** Add a component; the executor of its calls (closing it forgets the component, not the pool). */
  add(component: PoolComponent): PoolExecutor<A, R> {
    const slot = this.#nextSlot++;
    this.#components.set(slot, component);
    return new PoolExecutor(this, slot);
  }

  /** Make the instance of `slot` in a worker (a new worker instantiates every component as it starts). */
  async warm(slot: number): Promise<void> {
    const why = this.#unavailable.get(slot);
    if (why !== undefined) throw new Error(why);
    const loadMs = this.#components.get(slot)?.slot.spec.limits.loadDeadlineMs ?? 1;
    const outcome = await this.#submit({ job: JobKind.warm, slot, deadlineMs: loadMs }, null, 0, undefined);
    if (outcome.outcome.type !== 'ok') throw new Error(outcome.outcome.message);
  }

  /**
   * One call of `slot`'s component. Never rejects: every way a call can end is an
   * {@link EngineOutcome} — answered directly (no promise) when the worker replied within the caller's poll.
   */
  call(slot: number, args: A, options?: CallOptions): EngineOutcome<R> | Promise<EngineOutcome<R>> {
    const why = this.#unavailable.get(slot);
    if (why !== undefined) return { type: 'load-failure', message: why, logs: {} };
    const codec = this.#options.codec;
    const header: JobHeader = { job: JobKind.call, slot, deadlineMs: this.#deadline(slot, options?.deadlineMs) };
    const submitted = this.#submit(header, (into) => codec.encodeArgs(args, into), codec.maxArgsBytes(args), options?.signal);
    return submitted instanceof Promise ? submitted.then((s) => callResult(codec, s.outcome)) : callResult(codec, submitted.outcome);
  }

  /** Run the embedder's program on `input` (JSON) in one worker, within `deadlineMs`. */
  async program(input: unknown, deadlineMs: number, signal?: AbortSignal): Promise<ProgramResult> {
    const bytes = encoder.encode(JSON.stringify(input));
    const { outcome, callsStarted } = await this.#submit({ job: JobKind.program, slot: 0, deadlineMs: Math.max(1, Math.ceil(deadlineMs)) }, (into) => (bytes.length > into.length ? -1 : (into.set(bytes), bytes.length)), bytes.length, signal);
    return outcome.type === 'ok' ? { ok: true, output: outcome.value } : { ok: false, outcome, callsStarted };
  }

  /** Stop every worker; jobs still waiting or running end `aborted`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.settle(aborted('the executor was closed'), 0);
    await Promise.all([...this.#hands].map((hand) => this.#stop(hand, aborted('the executor was closed'))));
  }

  /** Forget a component (its executor was closed). The pool goes on for the others. */
  remove(slot: number): void {
    this.#components.delete(slot);
  }

  /** Jobs handed to a worker so far (calls, warm-ups and programs: for measurements and tests). */
  get jobsRun(): number {
    return this.#jobsRun;
  }

  /** Whether the last component leaving closes the pool. */
  get closesWhenEmpty(): boolean {
    return this.#options.closeWhenEmpty === true;
  }

  get size(): number {
    return this.#components.size;
  }

  #deadline(slot: number, shorter: number | undefined): number {
    const own = this.#components.get(slot)?.deadlineMs ?? 1;
    return shorter === undefined ? own : Math.max(1, Math.min(own, Math.ceil(shorter)));
  }

  /**
   * Run a job: on an idle worker found polling for it (awake), the caller polls for the reply up to
   * `callerSpinUs` (within the deadline, as {@link PollBackoff} allows): a quick job is answered here,
   * without a promise. Otherwise queued, answered through a promise.
   */
  #submit(header: JobHeader, write: Job['write'], size: number, signal: AbortSignal | undefined): Submitted | Promise<Submitted> {
    if (this.#closed) return { outcome: aborted('the executor is closed'), callsStarted: 0 };
    if (signal?.aborted === true) return { outcome: aborted('the call was aborted'), callsStarted: 0 };
    let done: Submitted | undefined;
    let resolve: ((submitted: Submitted) => void) | undefined;
    const onAbort = (): void => this.#abort(job, 'the call was aborted');
    const job: Job = {
      id: this.#nextId++,
      header,
      write,
      size,
      settle: (outcome, callsStarted) => {
        if (done !== undefined) return;
        done = { outcome, callsStarted };
        signal?.removeEventListener('abort', onAbort);
        resolve?.(done);
      },
    };
    const spinUs = Math.min(this.#callerSpinUs, header.deadlineMs * 1000);
    const hand = spinUs > 0 && this.#queue.length === 0 && this.#backoff.shouldPoll() ? this.#idleHand() : undefined;
    if (hand === undefined) {
      this.#queue.push(job);
      this.#dispatch();
    } else {
      const started = performance.now();
      if (this.#run(hand, job, true)) {
        let reply: ReturnType<CallerMailbox['pollReply']>;
        try {
          reply = hand.mailbox.pollReply(job.id, spinUs);
          this.#backoff.record(reply !== undefined);
          if (reply !== undefined) this.#arrived(hand, job.id, reply);
        } catch (error) {
          // A reply that breaks the mailbox's layout: not our worker any more.
          this.#onDeath(hand, error instanceof Error ? error : new Error(String(error)));
          reply = 'spilled';
        }
        if (done !== undefined) return done;
        // Not answered within the poll (a spilled reply comes by message): the rest of its deadline, awaited.
        if (reply === undefined) void this.#awaitReply(hand, job, performance.now() - started);
      }
    }
    if (done !== undefined) return done;
    signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise((r) => (resolve = r));
  }

  /** An idle worker for a job now: one polling for it if any (no wake-up), else the last idle one. */
  #idleHand(): Hand | undefined {
    let idle: Hand | undefined;
    for (const hand of this.#hands) if (hand.state === 'idle' && ((idle = hand), hand.mailbox.workerPolling)) break;
    return idle;
  }

  #slotMessage(slot: number, component: PoolComponent): SlotMessage {
    return { type: 'slot', slot, ...component.slot };
  }

  #spawn(): void {
    const worker = startWorker(this.#entry, typeof this.#options.heapMb === 'function' ? this.#options.heapMb() : this.#options.heapMb);
    const buffer = createMailboxBuffer();
    const slots = [...this.#components].filter(([slot]) => !this.#unavailable.has(slot));
    const hand: Hand = { worker, mailbox: new CallerMailbox(buffer, this.#decodeOk), state: 'starting', everReady: false, knows: new Set(slots.map(([slot]) => slot)) };
    this.#hands.add(hand);
    hand.startTimer = setTimeout(() => this.#failStart(hand, `the component did not instantiate within ${this.#options.startupTimeoutMs} ms`), this.#options.startupTimeoutMs);
    worker.on('message', (raw: unknown) => this.#onMessage(hand, raw));
    worker.on('error', (error: Error) => this.#onDeath(hand, error));
    worker.on('exit', (code: number) => this.#onDeath(hand, new Error(`the guest worker exited with code ${code}`)));
    const init: InitMessage = { type: 'init', mailbox: buffer, slots: slots.map(([slot, component]) => this.#slotMessage(slot, component)), spinUs: this.#options.spinUs ?? 0 };
    worker.postMessage(init);
  }

  #onMessage(hand: Hand, raw: unknown): void {
    if (hand.state === 'stopped') return;
    const parsed = parseWorkerToHost(raw);
    if (!parsed.success) {
      this.#onDeath(hand, new Error(`the guest worker sent an invalid message: ${parsed.error.message}`));
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        if (hand.startTimer !== undefined) clearTimeout(hand.startTimer);
        hand.state = 'idle';
        hand.everReady = true;
        this.#dispatch();
        return;
      case 'init-failed':
        this.#failStart(hand, message.message, message.slot);
        return;
      default:
        // A reply too large for the mailbox: taken once the mailbox has said "spilled" too.
        if (hand.spilled?.turnBack === true) {
          hand.spilled = undefined;
          this.#replied(hand, message);
        } else hand.spilled = { reply: message, turnBack: false };
    }
  }

  /** The mailbox said the reply was spilled (its turn is back with this thread): take the reply if it is here. */
  #turnBack(hand: Hand): void {
    const reply = hand.spilled?.reply;
    if (reply === undefined) {
      hand.spilled = { reply: undefined, turnBack: true };
      return;
    }
    hand.spilled = undefined;
    this.#replied(hand, reply);
  }

  /** A worker answered its job (through the mailbox or, spilled, by message). */
  #replied(hand: Hand, reply: CallReply): void {
    if (hand.state === 'draining') {
      // The job it ran was answered at its deadline; the worker is back.
      hand.job = undefined;
      hand.state = 'idle';
      this.#dispatch();
      return;
    }
    const job = hand.job;
    if (hand.state !== 'busy' || job === undefined || job.id !== reply.id) return;
    hand.job = undefined;
    job.settle(reply.outcome, hand.mailbox.progress);
    hand.state = 'idle';
    this.#dispatch();
  }

  /** Take what the mailbox says, when the worker answered (true); false when the wait timed out. */
  #arrived(hand: Hand, id: number, reply: Awaited<ReturnType<CallerMailbox['waitReply']>>): boolean {
    if (reply === 'timeout') return false;
    if (reply === 'spilled') {
      this.#turnBack(hand);
      return true;
    }
    const parsed = parseWorkerToHost(reply.json);
    if (!parsed.success || parsed.data.type !== 'reply' || parsed.data.id !== id) {
      throw new MailboxError(`mailbox: the reply is not the reply to job ${id}${parsed.success ? '' : `: ${parsed.error.message}`}`);
    }
    this.#replied(hand, parsed.data);
    return true;
  }

  /**
   * Wait for the worker's answer to `job`: at most its deadline (less `spentMs` already spent polling), then (the job answered `timeout`)
   * the grace period for the worker to come back by itself, after which it is replaced.
   */
  async #awaitReply(hand: Hand, job: Job, spentMs = 0): Promise<void> {
    try {
      const reply = await hand.mailbox.waitReply(job.id, job.header.deadlineMs - spentMs);
      if (hand.state === 'stopped' || this.#arrived(hand, job.id, reply)) return;
      // Answer at the deadline. The worker's meter stops the guest just after it; if the worker is not
      // back within the grace period, it is replaced in the background.
      job.settle(timedOut(job.header.deadlineMs), hand.mailbox.progress);
      if (hand.state !== 'busy' || hand.job !== job) return;
      hand.state = 'draining';
      this.#dispatch();
      const late = await hand.mailbox.waitReply(job.id, this.#options.graceMs);
      if (hand.state !== 'draining' || this.#arrived(hand, job.id, late)) return;
      void this.#stop(hand, timedOut(job.header.deadlineMs));
      this.#replenish();
    } catch (error) {
      // A reply that breaks the mailbox's layout: not our worker any more.
      this.#onDeath(hand, error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * A worker that cannot start: a component it could not instantiate (`slot`) — no worker can — or,
   * without one, the worker itself (a bad entry): then none of its components can run. Every job
   * waiting for them fails; the others go on in a worker started without them.
   */
  #failStart(hand: Hand, message: string, slot?: number): void {
    const failed = slot === undefined ? [...hand.knows] : [slot];
    for (const s of failed) this.#unavailable.set(s, message);
    void this.#stop(hand, { type: 'load-failure', message, logs: {} });
    for (const job of [...this.#queue]) {
      if (job.header.job === JobKind.program || !failed.includes(job.header.slot)) continue;
      this.#queue.splice(this.#queue.indexOf(job), 1);
      job.settle({ type: 'load-failure', message, logs: {} }, 0);
    }
    this.#replenish();
  }

  #onDeath(hand: Hand, error: Error): void {
    if (hand.state === 'stopped') return;
    const outOfMemory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    if (!hand.everReady) {
      // A worker that never came up (bad entry, a start function that kills it): none will.
      this.#failStart(hand, `the guest worker failed to start: ${error.message}`);
      return;
    }
    const message = `the guest worker died: ${error.message}`;
    void this.#stop(hand, outOfMemory ? { type: 'limit', what: 'memory', message, logs: {} } : { type: 'trap', kind: 'crash', message, memoryAtLimit: false, logs: {} });
    this.#replenish();
  }

  /** Terminate a worker (without waiting to answer its job: `outcome` goes out now) and forget it. */
  async #stop(hand: Hand, outcome: EngineOutcome<never>): Promise<void> {
    if (hand.state === 'stopped') return;
    hand.state = 'stopped';
    if (hand.startTimer !== undefined) clearTimeout(hand.startTimer);
    this.#hands.delete(hand);
    const job = hand.job;
    hand.job = undefined;
    job?.settle(outcome, hand.mailbox.progress);
    await hand.worker.terminate().catch(() => undefined);
  }

  #abort(job: Job, why: string): void {
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
      job.settle(aborted(why), 0);
      return;
    }
    if (job.worker !== undefined && job.worker.job === job) {
      void this.#stop(job.worker, aborted(why));
      this.#replenish();
    }
  }

  /**
   * Hand `job` to `hand`'s worker. With `poll`, the caller means to poll for the reply: true when it
   * should (the worker was polling for the job: no wake-up before the reply); false: awaited as usual.
   */
  #run(hand: Hand, job: Job, poll = false): boolean {
    this.#jobsRun++;
    hand.state = 'busy';
    hand.job = job;
    job.worker = hand;
    // A component added after this worker started: described to it first (it takes the message off its port).
    for (const [slot, component] of this.#components) {
      if (hand.knows.has(slot)) continue;
      hand.knows.add(slot);
      hand.worker.postMessage(this.#slotMessage(slot, component));
    }
    const write = job.write ?? ((): number => 0);
    const posted = hand.mailbox.postPolled(job.id, write, job.header);
    if (!posted.fits) {
      // Too large for the mailbox: by message, the mailbox keeping the turn (the worker takes it from its port).
      const buffer = new Uint8Array(job.size);
      const length = write(buffer);
      hand.worker.postMessage({ type: 'invoke', id: job.id, bytes: buffer.subarray(0, Math.max(0, length)) });
      hand.mailbox.postSpilled(job.id, job.header);
    }
    if (poll && posted.polling) return true;
    void this.#awaitReply(hand, job);
    return false;
  }

  /** Keep one worker warm after one was stopped, so the next job does not pay a cold start. */
  #replenish(): void {
    if (this.#closed) return;
    if (this.#hands.size === 0 && this.#queue.length === 0 && this.#components.size > this.#unavailable.size) this.#spawn();
    this.#dispatch();
  }

  #dispatch(): void {
    if (this.#closed) return;
    while (this.#queue.length > 0) {
      const idle = this.#idleHand();
      if (idle === undefined) break;
      const job = this.#queue.shift();
      if (job !== undefined) this.#run(idle, job);
    }
    let starting = 0;
    for (const hand of this.#hands) if (hand.state === 'starting') starting++;
    let missing = this.#queue.length - starting;
    while (missing > 0 && this.#hands.size < this.#options.maxWorkers) {
      this.#spawn();
      missing--;
    }
  }
}
