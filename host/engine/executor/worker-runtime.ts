/**
 * The inside of a guest worker: instantiates one component (modules compiled and instrumented by the
 * caller, posted in `init`) with its WASI, metered like in-thread instances, then serves calls one at
 * a time from its mailbox (mailbox.ts): it blocks in `Atomics.wait` until the caller posts a call,
 * decodes its arguments with the embedder's codec, calls the instance and writes the outcome back. A
 * call or reply too large for the mailbox goes by message, the mailbox still keeping the turns. The
 * caller terminates the worker if a call outlives its deadline by more than a grace period.
 *
 * Knows nothing of what is called: the embedder's worker entry (the hook adapter's worker-entry.ts)
 * calls {@link serveWorker} with its binding and codec — so the entry is the embedder's module, and
 * this one stays below it.
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { BindingFactory } from '../instance/binding.js';
import { asGlue } from '../instance/glue.js';
import { Instance } from '../instance/instance.js';
import type { EngineOutcome, OutcomeMessage } from '../outcome.js';
import type { Codec } from './codec.js';
import { parseHostToWorker } from './fast-messages.js';
import { HostToWorker, type CallReply, type InitMessage, type WorkerToHost } from './messages.js';
import { MailboxError, WorkerMailbox } from './mailbox.js';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The outcome as it crosses (its value in the codec's JSON form). A fresh object per call: given its fields in place. */
function toMessage<R>(outcome: EngineOutcome<R>, codec: Codec<unknown, R>): OutcomeMessage {
  if (outcome.type !== 'ok') return outcome;
  return { type: 'ok', value: codec.resultToJson(outcome.value), logs: outcome.logs };
}

/** The arguments of a spilled call, waiting on the port (the worker's event loop is not running). */
function spilledBytes(messages: MessagePort, id: number): Uint8Array {
  const received = receiveMessageOnPort(messages);
  if (received === undefined) throw new MailboxError(`mailbox: call ${id} was spilled, but no invoke is on the port`);
  const parsed = parseHostToWorker(received.message);
  if (!parsed.success || parsed.data.type !== 'invoke' || parsed.data.id !== id) throw new MailboxError(`mailbox: the spilled message is not the invoke of call ${id}`);
  return parsed.data.bytes;
}

/** Serve calls until the caller closes the mailbox (or terminates the worker). */
function serve<A, R>(instance: Instance<A, R>, codec: Codec<A, R>, mailbox: WorkerMailbox, port: MessagePort): void {
  for (;;) {
    const taken = mailbox.take();
    if (taken.type === 'closed') return;
    // Decoded before anything else uses the mailbox: the bytes are a view of it.
    const args = codec.decodeArgs(taken.type === 'invoke' ? taken.bytes : spilledBytes(port, taken.id));
    const outcome = instance.call(args, taken.deadlineMs > 0 ? taken.deadlineMs : undefined);
    const reply: CallReply = { type: 'reply', id: taken.id, outcome: toMessage(outcome, codec as Codec<unknown, R>) };
    if (!mailbox.reply(taken.id, reply)) {
      port.postMessage(reply);
      mailbox.replySpilled(taken.id);
    }
  }
}

/** What an embedder's worker entry serves with. */
export interface WorkerService<A, R> {
  readonly binding: BindingFactory<A, R>;
  readonly codec: Codec<A, R>;
}

/** Run this worker: wait for `init`, instantiate, then serve calls. Call once, from the worker entry. */
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
    const init: InitMessage = parsed.data;
    void (async () => {
      let instance: Instance<A, R>;
      try {
        instance = new Instance(init.spec, asGlue(await import(init.glueUrl)), service.binding(init.binding));
        instance.start();
      } catch (error) {
        post({ type: 'init-failed', message: `cannot instantiate the component: ${describe(error)}` });
        return;
      }
      post({ type: 'ready' });
      // An unexpected failure of the worker itself (a broken mailbox) surfaces as the worker's error
      // event: the caller then replaces the worker and fails the call it was running.
      serve(instance, service.codec, new WorkerMailbox(init.mailbox), port);
    })();
  });
}
