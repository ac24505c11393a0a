/**
 * The inside of a guest worker: it holds one instance per component slot it was given (modules
 * compiled and instrumented by the caller), each with its WASI and metered like in-thread instances,
 * and serves jobs one at a time from its mailbox (mailbox.ts): it blocks in `Atomics.wait` (after
 * polling for `spinUs`) until the caller posts one, then
 *
 * - `call`: decodes the arguments with the embedder's codec, calls the slot's instance, writes the
 *   outcome back;
 * - `warm`: makes the slot's instance (within its load deadline) and says how that went;
 * - `program`: runs the embedder's program on its JSON input — a program calls slots in turn (the hook
 *   adapter runs a segment of a chain this way: several hooks in one hop) — and writes its output back.
 *
 * A job or reply too large for the mailbox goes by message, the mailbox still keeping the turns. A
 * slot's glue is imported when its first job comes (the loop awaits it). The caller terminates the
 * worker if a job outlives its deadline by more than a grace period.
 *
 * Knows nothing of what is called: the embedder's worker entry (the hook adapter's worker-entry.ts)
 * calls {@link serveWorker} with its binding, codec and program.
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { BindingFactory } from '../instance/binding.js';
import { asGlue } from '../instance/glue.js';
import { Instance } from '../instance/instance.js';
import type { EngineOutcome, OutcomeMessage } from '../outcome.js';
import type { Codec } from './codec.js';
import { parseHostToWorker } from './fast-messages.js';
import { HostToWorker, type CallReply, type InitMessage, type SlotMessage, type WorkerToHost } from './messages.js';
import { JobKind, MailboxError, WorkerMailbox } from './mailbox.js';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Calls a program may make: one slot's call, counted (the caller reads how far a program got). */
export type ProgramCall<A, R> = (slot: number, args: A, deadlineMs?: number) => EngineOutcome<R>;

/** What an embedder's worker entry serves with. */
export interface WorkerService<A, R> {
  readonly binding: BindingFactory<A, R>;
  readonly codec: Codec<A, R>;
  /** Runs a program job: its JSON input in, its JSON output out (the embedder validates both sides). */
  readonly program?: (input: unknown, call: ProgramCall<A, R>) => unknown;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class Worker<A, R> {
  readonly #service: WorkerService<A, R>;
  readonly #port: MessagePort;
  readonly #mailbox: WorkerMailbox;
  readonly #spinUs: number;
  /** Slots as they were described (instantiated at their first job). */
  readonly #described = new Map<number, SlotMessage>();
  readonly #instances = new Map<number, Instance<A, R>>();
  /** Spilled invokes taken off the port while looking for a slot. */
  readonly #spilled = new Map<number, Uint8Array>();

  constructor(service: WorkerService<A, R>, port: MessagePort, init: InitMessage) {
    this.#service = service;
    this.#port = port;
    this.#mailbox = new WorkerMailbox(init.mailbox, init.spinUs > 0);
    this.#spinUs = init.spinUs;
    for (const slot of init.slots) this.#described.set(slot.slot, slot);
  }

  /** Take one message off the port (the event loop does not run while the worker waits in the mailbox). */
  #pull(): boolean {
    const received = receiveMessageOnPort(this.#port);
    if (received === undefined) return false;
    const parsed = parseHostToWorker(received.message);
    if (!parsed.success) throw new MailboxError(`the caller sent an invalid message: ${parsed.error.message}`);
    const message = parsed.data;
    if (message.type === 'slot') this.#described.set(message.slot, message);
    else if (message.type === 'invoke') this.#spilled.set(message.id, message.bytes);
    else throw new MailboxError('a second init');
    return true;
  }

  /**
   * Make the instances of the slots given at init (within their load deadlines), as a fresh worker
   * must before it serves: the slot that cannot be instantiated, with why, or undefined.
   */
  async start(): Promise<{ readonly slot: number; readonly error: unknown } | undefined> {
    for (const slot of this.#described.keys()) {
      try {
        (await this.#instance(slot)).start();
      } catch (error) {
        return { slot, error };
      }
    }
    return undefined;
  }

  /** The instance of `slot`, made (its glue imported) at its first use. */
  async #instance(slot: number): Promise<Instance<A, R>> {
    const known = this.#instances.get(slot);
    if (known !== undefined) return known;
    while (!this.#described.has(slot)) if (!this.#pull()) throw new MailboxError(`a job for slot ${slot}, which the caller never described`);
    const described = this.#described.get(slot) as SlotMessage;
    const instance = new Instance(described.spec, asGlue(await import(described.glueUrl)), this.#service.binding(described.binding));
    this.#instances.set(slot, instance);
    return instance;
  }

  #spilledBytes(id: number): Uint8Array {
    while (!this.#spilled.has(id)) if (!this.#pull()) throw new MailboxError(`mailbox: job ${id} was spilled, but no invoke is on the port`);
    const bytes = this.#spilled.get(id) as Uint8Array;
    this.#spilled.delete(id);
    return bytes;
  }

  #reply(id: number, outcome: OutcomeMessage): void {
    const reply: CallReply = { type: 'reply', id, outcome };
    if (!this.#mailbox.reply(id, reply)) {
      this.#port.postMessage(reply);
      this.#mailbox.replySpilled(id);
    }
  }

  /** Answer a call: an `ok` without logs as the codec's result bytes when it has them, anything else as JSON. */
  #replyCall(id: number, outcome: EngineOutcome<R>): void {
    const codec = this.#service.codec;
    const encode = codec.encodeResult;
    if (outcome.type === 'ok' && encode !== undefined && outcome.logs.stdout === undefined && outcome.logs.stderr === undefined) {
      const value = outcome.value;
      if (this.#mailbox.replyOk(id, (into) => encode(value, into))) return;
    }
    this.#reply(id, toMessage(outcome, codec));
  }

  /** Serve jobs until the caller closes the mailbox (or terminates the worker). */
  async serve(): Promise<void> {
    const codec = this.#service.codec;
    for (;;) {
      const taken = this.#mailbox.take(this.#spinUs);
      if (taken.type === 'closed') return;
      // Read before anything else uses the mailbox: the bytes are a view of it.
      const bytes = taken.type === 'invoke' ? taken.bytes : this.#spilledBytes(taken.id);
      const { job, slot, deadlineMs } = taken.header;
      if (job === JobKind.program) {
        const input: unknown = JSON.parse(decoder.decode(bytes));
        this.#reply(taken.id, await this.#program(input));
        continue;
      }
      const args = job === JobKind.call ? codec.decodeArgs(bytes) : undefined;
      let instance: Instance<A, R>;
      try {
        instance = await this.#instance(slot);
        if (job === JobKind.warm && !instance.alive) instance.start();
      } catch (error) {
        if (error instanceof MailboxError) throw error;
        this.#reply(taken.id, { type: 'load-failure', message: `cannot instantiate the component: ${describe(error)}`, logs: {} });
        continue;
      }
      if (job === JobKind.warm) {
        this.#reply(taken.id, { type: 'ok', value: null, logs: {} });
        continue;
      }
      this.#replyCall(taken.id, instance.call(args as A, deadlineMs > 0 ? deadlineMs : undefined));
    }
  }

  /** A program job: every slot it may call is made first (imports are awaited here, not inside a call). */
  async #program(input: unknown): Promise<OutcomeMessage> {
    const program = this.#service.program;
    if (program === undefined) return { type: 'load-failure', message: 'this worker runs no programs', logs: {} };
    while (this.#pull());
    for (const slot of this.#described.keys()) if (!this.#instances.has(slot)) await this.#instance(slot);
    const call: ProgramCall<A, R> = (slot, args, deadlineMs) => {
      this.#mailbox.started();
      const instance = this.#instances.get(slot);
      if (instance === undefined) return { type: 'load-failure', message: `no component in slot ${slot}`, logs: {} };
      return instance.call(args, deadlineMs);
    };
    return { type: 'ok', value: program(input, call), logs: {} };
  }
}

/** The outcome as it crosses (its value in the codec's JSON form). */
function toMessage<A, R>(outcome: EngineOutcome<R>, codec: Codec<A, R>): OutcomeMessage {
  if (outcome.type !== 'ok') return outcome;
  return { type: 'ok', value: codec.resultToJson(outcome.value), logs: outcome.logs };
}

/** Run this worker: wait for `init`, then serve jobs. Call once, from the worker entry. */
export function serveWorker<A, R>(service: WorkerService<A, R>): void {
  const port = parentPort;
  if (port === null) throw new Error('a guest worker must run in a worker thread');
  const post = (message: WorkerToHost): void => port.postMessage(message);
  port.once('message', (raw: unknown) => {
    const parsed = HostToWorker.safeParse(raw);
    if (!parsed.success || parsed.data.type !== 'init') {
      // Not a message from our caller: nothing sensible to answer; end the worker loudly.
      throw new Error(`guest worker: the first message is not a valid init: ${parsed.success ? parsed.data.type : parsed.error.message}`);
    }
    const worker = new Worker(service, port, parsed.data);
    void (async () => {
      const failed = await worker.start();
      if (failed !== undefined) {
        post({ type: 'init-failed', message: `cannot instantiate the component: ${describe(failed.error)}`, slot: failed.slot });
        return;
      }
      post({ type: 'ready' });
      // An unexpected failure of the worker itself (a broken mailbox) surfaces as the worker's error
      // event: the caller then replaces the worker and fails the job it was running.
      await worker.serve();
    })();
  });
}
