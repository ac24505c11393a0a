import type * as WasiIoError from './generated/interfaces/wasi-io-error.js';
import type * as WasiIoPoll from './generated/interfaces/wasi-io-poll.js';
import type * as WasiIoStreams from './generated/interfaces/wasi-io-streams.js';
import { HostCallLimit, LIFT_LIMITS } from './host-calls.js';
import { ledgerOf, released } from './resources.js';
import { wasiErr } from './wasi-error.js';

/*
 * wasi:io for the sandbox: in-thread streams over a sink or a source, and pollables that are ready
 * now or at a monotonic instant. preview2-shim's Node streams run through an I/O worker thread it
 * starts on import and write to the real stdout — neither is acceptable for an untrusted guest.
 */

/** `wasi:io/error.error`: a message, nothing else. */
export class IoError {
  readonly #message: string;
  // Optional only because the WIT's resource classes have zero-argument constructors.
  constructor(message = 'i/o error') {
    this.#message = message;
  }
  toDebugString(): string {
    return this.#message;
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * How a sandbox waits for a monotonic instant (ns). The default blocks the thread; in-thread
 * (metered) isolation passes one that refuses to wait past what the call may still spend.
 */
export type Sleeper = (instant: bigint) => void;

/** Block this thread until the monotonic clock reaches `instant` (ns). */
export const sleepUntil: Sleeper = (instant) => {
  for (;;) {
    const left = instant - process.hrtime.bigint();
    if (left <= 0n) return;
    // Atomics.wait on a cell nobody notifies is a plain sleep.
    Atomics.wait(sleepCell, 0, 0, Math.max(1, Number(left / 1_000_000n)));
  }
};

/** `wasi:io/poll.pollable`: ready now, or at a monotonic instant (clock subscriptions). */
export class Pollable {
  readonly #readyAt: bigint | undefined;
  readonly #sleep: Sleeper;
  // Optional only because the WIT's resource classes have zero-argument constructors.
  constructor(readyAt?: bigint, sleep: Sleeper = sleepUntil) {
    this.#readyAt = readyAt;
    this.#sleep = sleep;
  }
  ready(): boolean {
    return this.#readyAt === undefined || process.hrtime.bigint() >= this.#readyAt;
  }
  block(): void {
    if (this.#readyAt !== undefined && !this.ready()) this.#sleep(this.#readyAt);
  }
  /** When it becomes ready (undefined: already). */
  get readyAt(): bigint | undefined {
    return this.#readyAt;
  }
  [Symbol.dispose](): void {
    released(this);
  }
}

/** A pollable subscribed through `owner`, counted in the owner's sandbox. */
function subscribed(owner: object): Pollable {
  const pollable = new Pollable();
  return ledgerOf(owner)?.track(pollable, 'call') ?? pollable;
}

/**
 * The sandbox's own object behind a handle the guest passed back. jco hands back exactly the objects
 * the sandbox created (it keeps them by handle), so anything else is a broken guest or glue.
 */
export function own<T>(value: unknown, type: abstract new (...args: never[]) => T, what: string): T {
  if (!(value instanceof type)) throw new TypeError(`not a sandbox ${what}`);
  return value;
}

/**
 * `wasi:io/poll.poll`: wait (with `sleep`) until at least one is ready; the indices of the ready ones.
 * The list is at most as long as the resources a guest may hold (the glue refuses a longer one before
 * lifting it: wasi/host-calls.ts; checked here again for a caller that is not the glue).
 */
function poll(list: WasiIoPoll.Pollable[], sleep: Sleeper): Uint32Array {
  const max = LIFT_LIMITS['param-elements'];
  if (list.length > max) throw new HostCallLimit('wasi:io/poll#poll', list.length, max, `the guest polled ${list.length} pollables at once (at most ${max})`);
  const pollables = list.map((p) => own(p, Pollable, 'pollable'));
  // Polling nothing would block forever: WASI says trap.
  if (pollables.length === 0) throw new TypeError('wasi:io/poll.poll called with an empty list');
  const earliest = pollables.reduce<bigint | undefined>((min, p) => {
    const at = p.readyAt;
    if (at === undefined) return min;
    return min === undefined || at < min ? at : min;
  }, undefined);
  if (!pollables.some((p) => p.ready()) && earliest !== undefined) sleep(earliest);
  const ready: number[] = [];
  pollables.forEach((p, i) => {
    if (p.ready()) ready.push(i);
  });
  return new Uint32Array(ready);
}

/** Where an input stream's bytes come from: `read` returns undefined at end of stream. */
export interface ByteSource {
  read(max: number): Uint8Array | undefined;
  close?(): void;
}

/** Most bytes one read hands back, whatever length the guest asks for (it may ask for 2^64). */
const MAX_READ = 1024 * 1024;

function closedStream(): never {
  return wasiErr<WasiIoStreams.StreamError>({ tag: 'closed' });
}

/** `wasi:io/streams.input-stream` over a source; a closed stream (stdin) has none. */
export class InputStream {
  #source: ByteSource | undefined;
  constructor(source?: ByteSource) {
    this.#source = source;
  }
  read(len: bigint): Uint8Array {
    if (this.#source === undefined) return closedStream();
    if (len === 0n) return new Uint8Array(0);
    const bytes = this.#source.read(Number(len < BigInt(MAX_READ) ? len : BigInt(MAX_READ)));
    return bytes ?? closedStream();
  }
  blockingRead(len: bigint): Uint8Array {
    return this.read(len);
  }
  skip(len: bigint): bigint {
    return BigInt(this.read(len).byteLength);
  }
  blockingSkip(len: bigint): bigint {
    return this.skip(len);
  }
  subscribe(): Pollable {
    return subscribed(this);
  }
  [Symbol.dispose](): void {
    released(this);
    this.close();
  }
  /** No more bytes: what the guest reads from now on is end of stream. */
  close(): void {
    this.#source?.close?.();
    this.#source = undefined;
  }
}

/** Where an output stream's bytes go. */
export type ByteSink = (bytes: Uint8Array) => void;

/** How much a guest may write per check-write (it may write in as many rounds as it likes). */
const WRITE_PERMIT = 1024n * 1024n;

/** `wasi:io/streams.output-stream` into a sink (a capped log buffer); no sink = closed. */
export class OutputStream {
  readonly #sink: ByteSink | undefined;
  constructor(sink?: ByteSink) {
    this.#sink = sink;
  }
  #write(bytes: Uint8Array): void {
    if (this.#sink === undefined) closedStream();
    this.#sink(bytes);
  }
  checkWrite(): bigint {
    if (this.#sink === undefined) closedStream();
    return WRITE_PERMIT;
  }
  write(contents: Uint8Array): void {
    this.#write(contents);
  }
  blockingWriteAndFlush(contents: Uint8Array): void {
    this.#write(contents);
  }
  flush(): void {
    if (this.#sink === undefined) closedStream();
  }
  blockingFlush(): void {
    this.flush();
  }
  subscribe(): Pollable {
    return subscribed(this);
  }
  [Symbol.dispose](): void {
    released(this);
  }
  writeZeroes(len: bigint): void {
    this.#write(new Uint8Array(Number(len < WRITE_PERMIT ? len : WRITE_PERMIT)));
  }
  blockingWriteZeroesAndFlush(len: bigint): void {
    this.writeZeroes(len);
  }
  splice(src: WasiIoStreams.InputStream, len: bigint): bigint {
    const bytes = own(src, InputStream, 'input-stream').read(len);
    this.#write(bytes);
    return BigInt(bytes.byteLength);
  }
  blockingSplice(src: WasiIoStreams.InputStream, len: bigint): bigint {
    return this.splice(src, len);
  }
}

export const ioError = { Error: IoError } satisfies typeof WasiIoError;
/** `wasi:io/poll` whose `poll` waits with `sleep`. */
export function createIoPoll(sleep: Sleeper) {
  return { Pollable, poll: (list: WasiIoPoll.Pollable[]) => poll(list, sleep) } satisfies typeof WasiIoPoll;
}
export const ioStreams = { InputStream, OutputStream } satisfies typeof WasiIoStreams;
