/**
 * A SharedArrayBuffer mailbox between the caller and one worker: the per-call hop without
 * `postMessage` and structured clone (PERF-FINDINGS: a round trip 16 → 8 µs, 5–10 µs of cloning
 * saved). The worker blocks in `Atomics.wait` for a request; the caller writes the request's bytes
 * into the buffer (the embedder's codec writes them in place), may poll for the reply for a few tens
 * of µs (`pollReply`: a quick answer then costs no wake-up of the caller's thread and no turn of its
 * event loop), and otherwise awaits `Atomics.waitAsync` (its thread stays free). The deadline stays with the caller: it stops waiting, then the pool terminates
 * (and replaces) the worker.
 *
 * Layout (all little-endian; one buffer per worker; one call at a time):
 *
 *   byte 0   i32 state      0 IDLE (the worker may take a request), 1 REQUEST (written by the caller),
 *                           2 REPLY (written by the worker), 3 CLOSED (the caller is done with it)
 *   byte 4   i32 seq        the call's id; a reply carries the id of the request it answers
 *   byte 8   i32 length     bytes of the message in the data area
 *   byte 12  i32 kind       1 invoke (caller → worker), 2 reply (worker → caller),
 *                           3 invoke spilled, 4 reply spilled (the message went by postMessage),
 *                           5 reply ok (a call's `ok` outcome without logs: its value as the codec's bytes)
 *   byte 16  i32 deadline   the call's deadline in ms (0: the limits' own), with an invoke
 *   byte 20  i32 job        what the invoke asks: 1 call a slot, 2 run a program, 3 warm a slot
 *   byte 24  i32 slot       the component slot a call or warm-up is for
 *   byte 28  i32 progress   a program's calls started so far (written by the worker as it goes)
 *   byte 32  i32 polling    1 while the worker polls for its next job (it needs no wake-up), else 0
 *   byte 36  (unused)
 *   byte 40  data           `capacity` bytes
 *
 * An invoke's data is whatever the codec wrote (a call's arguments) or a program's input as UTF-8
 * JSON text; a reply is the JSON text of the
 * worker's reply message (messages.ts) — or, for a call that ended `ok` with no logs (nearly every
 * call), just its value as the codec's bytes (`encodeResult`: no JSON made, parsed or checked as an
 * envelope). Both are validated on arrival: the header (kind, seq, length
 * within capacity), then the content — the reply as UTF-8 JSON here, its envelope and value by the
 * pool; the arguments by the codec in the worker.
 *
 * A message larger than the capacity is *spilled*: the sender posts it with `postMessage` first, then
 * writes a spilled header (kind 3 or 4, no data) and wakes the other side, which takes it from the
 * port — the worker with `receiveMessageOnPort(parentPort)` (it is blocked in `Atomics.wait`, its
 * event loop does not run), the caller from the pool's message listener. Every call, large or not,
 * goes through the mailbox's states, so the two sides never disagree on whose turn it is.
 */

export const MAILBOX_HEADER_BYTES = 40;
/** Default data capacity: requests and replies up to 1 MiB take the mailbox; larger ones postMessage. */
export const MAILBOX_DEFAULT_CAPACITY = 1024 * 1024;

const STATE = 0;
const SEQ = 1;
const LENGTH = 2;
const KIND = 3;
const DEADLINE = 4;
const JOB = 5;
const SLOT = 6;
const PROGRESS = 7;
const POLLING = 8;

/** What an invoke asks of the worker. */
export const JobKind = { call: 1, program: 2, warm: 3 } as const;
export type JobKind = (typeof JobKind)[keyof typeof JobKind];

/** Where an invoke goes and by when. */
export interface JobHeader {
  readonly job: JobKind;
  /** The slot of a call or warm-up (ignored for a program). */
  readonly slot: number;
  /** Its deadline in ms (0: the slot's own). */
  readonly deadlineMs: number;
}
export const MailboxState = { idle: 0, request: 1, reply: 2, closed: 3 } as const;
const KIND_INVOKE = 1;
const KIND_REPLY = 2;
const KIND_INVOKE_SPILLED = 3;
const KIND_REPLY_SPILLED = 4;
const KIND_REPLY_OK = 5;

/** A message that breaks the layout: a bug (ours, or a worker that is not ours). End that worker. */
export class MailboxError extends Error {
  override readonly name = 'MailboxError';
  readonly code = 'internal_error' as const;
}

/** Node 20's lib typings (ES2023) lack `Atomics.waitAsync`; it exists at run time. */
type WaitAsync = (array: Int32Array, index: number, value: number, timeoutMs?: number) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A fresh mailbox buffer; post it to the worker once (in its init message). */
export function createMailboxBuffer(capacity = MAILBOX_DEFAULT_CAPACITY): SharedArrayBuffer {
  return new SharedArrayBuffer(MAILBOX_HEADER_BYTES + capacity);
}

class Shared {
  readonly i32: Int32Array;
  readonly u8: Uint8Array;
  readonly capacity: number;

  constructor(buffer: SharedArrayBuffer) {
    if (buffer.byteLength < MAILBOX_HEADER_BYTES) throw new MailboxError('the mailbox buffer is smaller than its header');
    this.i32 = new Int32Array(buffer, 0, MAILBOX_HEADER_BYTES / 4);
    this.u8 = new Uint8Array(buffer, MAILBOX_HEADER_BYTES);
    this.capacity = buffer.byteLength - MAILBOX_HEADER_BYTES;
  }

  /** Write a header and hand the turn to the other side. */
  signal(state: number, kind: number, seq: number, length: number): void {
    const i32 = this.i32;
    Atomics.store(i32, LENGTH, length);
    Atomics.store(i32, KIND, kind);
    Atomics.store(i32, SEQ, seq);
    Atomics.store(i32, STATE, state);
    Atomics.notify(i32, STATE);
  }

  /** The message in the data area after checking the header: its kind, its id and that it fits. */
  message(kind: number, seq: number | undefined): Uint8Array {
    const got = Atomics.load(this.i32, KIND);
    if (got !== kind) throw new MailboxError(`mailbox: expected a message of kind ${kind}, got ${got}`);
    if (seq !== undefined && Atomics.load(this.i32, SEQ) !== seq) throw new MailboxError(`mailbox: a reply to call ${Atomics.load(this.i32, SEQ)}, expected ${seq}`);
    const length = Atomics.load(this.i32, LENGTH);
    if (length < 0 || length > this.capacity) throw new MailboxError(`mailbox: message length ${length} outside 0..${this.capacity}`);
    return this.u8.subarray(0, length);
  }
}

/**
 * The caller's side (the pool, one per worker). Use: `post(id, write, deadlineMs)` (false: too large —
 * then `postMessage` the invoke and `postSpilled(id)`), then `await waitReply(id, ms)`: the reply's
 * JSON value, `'spilled'` (it comes by postMessage), or `'timeout'`. One call at a time.
 */
export class CallerMailbox {
  readonly #shared: Shared;
  readonly #decodeOk: ((bytes: Uint8Array) => unknown) | undefined;

  /** `decodeOk` reads a `reply ok` (the codec's `decodeResult`; throws on bytes that are not a result). */
  constructor(buffer: SharedArrayBuffer, decodeOk?: (bytes: Uint8Array) => unknown) {
    this.#shared = new Shared(buffer);
    this.#decodeOk = decodeOk;
  }

  /** The data area, for a codec to write an invoke into. */
  get data(): Uint8Array {
    return this.#shared.u8;
  }

  /**
   * Copy an invoke for call `id` into the mailbox (`write` puts its bytes at the start of the data
   * area and returns how many, or -1 when they do not fit) and wake the worker. False when it does not fit.
   */
  post(id: number, write: (into: Uint8Array) => number, header: JobHeader = CALL_SLOT_0): boolean {
    const shared = this.#shared;
    this.#idle();
    const length = write(shared.u8);
    if (length < 0) return false;
    this.#header(header);
    shared.signal(MailboxState.request, KIND_INVOKE, id, length);
    return true;
  }

  /** Call `id`'s invoke went by `postMessage` (post it first): wake the worker to take it from its port. */
  postSpilled(id: number, header: JobHeader = CALL_SLOT_0): void {
    this.#idle();
    this.#header(header);
    this.#shared.signal(MailboxState.request, KIND_INVOKE_SPILLED, id, 0);
  }

  #header(header: JobHeader): void {
    const i32 = this.#shared.i32;
    Atomics.store(i32, DEADLINE, header.deadlineMs);
    Atomics.store(i32, JOB, header.job);
    Atomics.store(i32, SLOT, header.slot);
    Atomics.store(i32, PROGRESS, 0);
  }

  /** Whether the worker is polling for its next job now (it needs no wake-up). */
  get workerPolling(): boolean {
    return Atomics.load(this.#shared.i32, POLLING) === 1;
  }

  /** How many calls the running program has started (what was running when it was given up). */
  get progress(): number {
    return Atomics.load(this.#shared.i32, PROGRESS);
  }

  #idle(): void {
    if (Atomics.load(this.#shared.i32, STATE) !== MailboxState.idle) throw new MailboxError('mailbox: a call is already in flight');
  }

  /**
   * Post as {@link post} does, and say whether the worker was polling for it (true: it needs no
   * wake-up, so a quick reply is likely within a short poll) — read before the request is written.
   */
  postPolled(id: number, write: (into: Uint8Array) => number, header: JobHeader): { readonly fits: boolean; readonly polling: boolean } {
    const polling = Atomics.load(this.#shared.i32, POLLING) === 1;
    return { fits: this.post(id, write, header), polling };
  }

  /**
   * Poll (blocking this thread) for the reply to call `id`, for at most `spinUs` µs: what
   * {@link waitReply} would give, or undefined when the worker has not answered yet (then wait with
   * {@link waitReply}). A reply caught so costs neither a wake-up of this thread nor a turn of its
   * event loop; the poll holds the thread meanwhile, so keep `spinUs` to tens of µs.
   */
  pollReply(id: number, spinUs: number): { readonly json: unknown } | 'spilled' | undefined {
    const i32 = this.#shared.i32;
    let state = Atomics.load(i32, STATE);
    if (state === MailboxState.request && spinUs > 0) {
      const until = performance.now() + spinUs / 1000;
      do state = Atomics.load(i32, STATE);
      while (state === MailboxState.request && performance.now() < until);
    }
    if (state === MailboxState.request) return undefined;
    if (state !== MailboxState.reply) throw new MailboxError(`mailbox: state ${state} while waiting for a reply`);
    return this.#take(id);
  }

  /**
   * Wait (without blocking this thread) for the reply to call `id`, at most `timeoutMs`: its JSON
   * value (the pool validates it), `'spilled'` or `'timeout'`. A reply that is not UTF-8 JSON throws
   * {@link MailboxError}. After a reply the mailbox is idle again.
   */
  async waitReply(id: number, timeoutMs: number): Promise<{ readonly json: unknown } | 'spilled' | 'timeout'> {
    const i32 = this.#shared.i32;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const state = Atomics.load(i32, STATE);
      if (state === MailboxState.reply) break;
      if (state !== MailboxState.request) throw new MailboxError(`mailbox: state ${state} while waiting for a reply`);
      const left = deadline - performance.now();
      if (left <= 0) return 'timeout';
      const waited = waitAsync(i32, STATE, MailboxState.request, left);
      if (waited.async) await waited.value;
    }
    return this.#take(id);
  }

  /** The reply in the mailbox (the state says there is one), checked; the mailbox is idle again. */
  #take(id: number): { readonly json: unknown } | 'spilled' {
    const i32 = this.#shared.i32;
    const kind = Atomics.load(i32, KIND);
    if (kind === KIND_REPLY_OK) {
      const bytes = this.#shared.message(KIND_REPLY_OK, id);
      const decode = this.#decodeOk;
      if (decode === undefined) throw new MailboxError('mailbox: a reply as result bytes, and no codec to read them');
      let value: unknown;
      try {
        value = decode(bytes);
      } catch (error) {
        throw new MailboxError(`mailbox: the reply's result bytes are not a result (${error instanceof Error ? error.message : String(error)})`);
      }
      Atomics.store(i32, STATE, MailboxState.idle);
      // The envelope the worker would have sent: its id is the header's, checked above.
      return { json: { type: 'reply', id, outcome: { type: 'ok', value, logs: {} } } };
    }
    if (kind === KIND_REPLY_SPILLED) {
      this.#shared.message(KIND_REPLY_SPILLED, id);
      Atomics.store(i32, STATE, MailboxState.idle);
      return 'spilled';
    }
    const bytes = this.#shared.message(KIND_REPLY, id);
    let json: unknown;
    try {
      json = JSON.parse(decoder.decode(bytes));
    } catch (error) {
      throw new MailboxError(`mailbox: the reply is not UTF-8 JSON text (${error instanceof Error ? error.message : String(error)})`);
    }
    Atomics.store(i32, STATE, MailboxState.idle);
    return { json };
  }

  /** Tell the worker to leave its loop (it is also fine to terminate it). */
  close(): void {
    Atomics.store(this.#shared.i32, STATE, MailboxState.closed);
    Atomics.notify(this.#shared.i32, STATE);
  }
}

/**
 * What the worker took out of the mailbox: an invoke's bytes (a view of the mailbox: read them before
 * replying) and its deadline; `spilled`: the invoke is on the worker's port.
 */
export type Taken =
  | { readonly type: 'invoke'; readonly id: number; readonly bytes: Uint8Array; readonly header: JobHeader }
  | { readonly type: 'spilled'; readonly id: number; readonly header: JobHeader }
  | { readonly type: 'closed' };

const CALL_SLOT_0: JobHeader = { job: JobKind.call, slot: 0, deadlineMs: 0 };

function jobKind(value: number): JobKind {
  if (value !== JobKind.call && value !== JobKind.program && value !== JobKind.warm) throw new MailboxError(`mailbox: unknown job kind ${value}`);
  return value;
}

/**
 * The worker's side (the worker runtime, after `init`): `take()` blocks in `Atomics.wait` until a
 * request or close; `reply(id, message)` answers (false: too large — `postMessage` it, then
 * `replySpilled(id)`).
 */
export class WorkerMailbox {
  readonly #shared: Shared;
  /** Whether this worker polls after each reply ({@link take} with a spin): said with the reply itself. */
  readonly #pollsAfterReply: boolean;

  /**
   * `pollsAfterReply`: this worker calls {@link take} with a spin after each reply. The polling flag
   * is then raised *before* the reply is signalled, not only once `take` starts: a caller that takes
   * the reply and posts its next call at once — before a descheduled worker thread has come back to
   * `take` — still sees a worker that will poll for it, and polls for the reply itself.
   */
  constructor(buffer: SharedArrayBuffer, pollsAfterReply = false) {
    this.#shared = new Shared(buffer);
    this.#pollsAfterReply = pollsAfterReply;
  }

  /** Hand the turn back with a reply (raising the polling flag first when this worker polls next). */
  #signalReply(kind: number, id: number, length: number): void {
    if (this.#pollsAfterReply) Atomics.store(this.#shared.i32, POLLING, 1);
    this.#shared.signal(MailboxState.reply, kind, id, length);
  }

  /**
   * Block until the caller posts a request (or closes). With `spinUs`, first poll for that long
   * without sleeping: a request that comes within it is taken without the cost of waking the thread.
   */
  take(spinUs = 0): Taken {
    const i32 = this.#shared.i32;
    if (spinUs > 0) {
      // Said while it lasts, so the caller polls for the reply only when no wake-up stands before it.
      // Until a request (or close) — through the reply state too: the caller may not have taken the
      // last reply yet (it sets the state idle without a notify), and a poll that stopped at it would
      // sleep at once, however long `spinUs` is.
      Atomics.store(i32, POLLING, 1);
      const until = performance.now() + spinUs / 1000;
      for (;;) {
        const state = Atomics.load(i32, STATE);
        if ((state !== MailboxState.idle && state !== MailboxState.reply) || performance.now() >= until) break;
      }
      Atomics.store(i32, POLLING, 0);
    }
    for (;;) {
      const state = Atomics.load(i32, STATE);
      if (state === MailboxState.request) break;
      if (state === MailboxState.closed) return { type: 'closed' };
      Atomics.wait(i32, STATE, state);
    }
    const id = Atomics.load(i32, SEQ);
    const header: JobHeader = { job: jobKind(Atomics.load(i32, JOB)), slot: Atomics.load(i32, SLOT), deadlineMs: Atomics.load(i32, DEADLINE) };
    if (Atomics.load(i32, KIND) === KIND_INVOKE_SPILLED) {
      this.#shared.message(KIND_INVOKE_SPILLED, id);
      return { type: 'spilled', id, header };
    }
    return { type: 'invoke', id, bytes: this.#shared.message(KIND_INVOKE, undefined), header };
  }

  /** A program's next call is starting (the caller reads it when the program is given up). */
  started(): void {
    Atomics.add(this.#shared.i32, PROGRESS, 1);
  }

  /** Call `id`'s reply went by `postMessage` (post it first): hand the turn back to the caller. */
  replySpilled(id: number): void {
    this.#signalReply(KIND_REPLY_SPILLED, id, 0);
  }

  /**
   * Answer call `id`, which ended `ok` without logs, with its value as bytes (`write` puts them at the
   * start of the data area and returns how many, or -1). False when they do not fit: answer with {@link reply}.
   */
  replyOk(id: number, write: (into: Uint8Array) => number): boolean {
    const shared = this.#shared;
    const length = write(shared.u8);
    if (length < 0) return false;
    this.#signalReply(KIND_REPLY_OK, id, length);
    return true;
  }

  /** Answer call `id` with `message` as JSON. False when it does not fit (the mailbox stays in the request state). */
  reply(id: number, message: unknown): boolean {
    const shared = this.#shared;
    const text = JSON.stringify(message);
    if (text.length * 3 > shared.capacity && encoder.encode(text).length > shared.capacity) return false;
    const { written, read } = encoder.encodeInto(text, shared.u8);
    if (read !== text.length) return false;
    this.#signalReply(KIND_REPLY, id, written);
    return true;
  }
}
