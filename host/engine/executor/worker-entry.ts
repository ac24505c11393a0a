/**
 * A guest worker: instantiates one component (modules compiled and instrumented by the host, posted in
 * `init`) with its sandbox, metered like in-thread instances, then serves calls one at a time from
 * its mailbox (worker/mailbox.ts): it blocks in `Atomics.wait` until the host posts a request, calls
 * `handle` and writes the reply back. A request or reply too large for the mailbox goes by message,
 * the mailbox still keeping the turns. The host also terminates it if a call outlives its deadline
 * by more than a grace period. Started from dist/ when built, from a bundle of these sources in development (from-source.ts).
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { WitHookRequest } from '../../codec/wit.js';
import { parseHostToWorker } from './fast-messages.js';
import { GuestInstance, asGlue } from '../instance/instance.js';
import { HostToWorker, type CallOutcome, type CallReply, type InitMessage, type WorkerToHost } from './messages.js';
import { MailboxError, WorkerMailbox } from './mailbox.js';

const port = parentPort;
if (port === null) throw new Error('worker/entry must run in a worker thread');

function post(message: WorkerToHost): void {
  port?.postMessage(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Instantiate the component; the guest, or undefined when it cannot be (the host has been told). */
async function start(init: InitMessage): Promise<GuestInstance | undefined> {
  try {
    const { type: _type, glueUrl, mailbox: _mailbox, ...spec } = init;
    const guest = new GuestInstance(spec, asGlue(await import(glueUrl)));
    guest.start();
    post({ type: 'ready' });
    return guest;
  } catch (error) {
    post({ type: 'init-failed', message: `cannot instantiate the component: ${describe(error)}` });
    return undefined;
  }
}

/** The invoke of a spilled call, waiting on the port (the worker's event loop is not running). */
function spilledRequest(messages: MessagePort, id: number): WitHookRequest {
  const received = receiveMessageOnPort(messages);
  if (received === undefined) throw new MailboxError(`mailbox: call ${id} was spilled, but no invoke is on the port`);
  const parsed = parseHostToWorker(received.message);
  if (!parsed.success || parsed.data.type !== 'invoke' || parsed.data.id !== id) throw new MailboxError(`mailbox: the spilled message is not the invoke of call ${id}`);
  return parsed.data.request;
}

function withId(outcome: CallOutcome, id: number): CallReply {
  // The outcome is this call's own fresh object: give it its id in place rather than copy it.
  (outcome as { id?: number }).id = id;
  return outcome as CallReply;
}

/**
 * Serve calls until the host closes the mailbox (or terminates the worker). A call after a discarded
 * instance makes a fresh one first, within the call's own deadline.
 */
function serve(guest: GuestInstance, mailbox: WorkerMailbox, messages: MessagePort): void {
  for (;;) {
    const taken = mailbox.take();
    if (taken.type === 'closed') return;
    const request = taken.type === 'invoke' ? taken.request : spilledRequest(messages, taken.id);
    const reply = withId(guest.call(request), taken.id);
    if (!mailbox.reply(taken.id, reply)) {
      post(reply);
      mailbox.replySpilled(taken.id);
    }
  }
}

port.once('message', (raw: unknown) => {
  const parsed = HostToWorker.safeParse(raw);
  if (!parsed.success || parsed.data.type !== 'init') {
    // Not a message from our host: nothing sensible to answer; end the worker loudly.
    throw new Error(`guest worker: the first message is not a valid init: ${parsed.success ? parsed.data.type : parsed.error.message}`);
  }
  const init = parsed.data;
  void start(init).then((guest) => {
    // An unexpected failure of the worker itself (a broken mailbox) surfaces as the worker's error
    // event: the host then replaces the worker and fails the call it was running.
    if (guest !== undefined) serve(guest, new WorkerMailbox(init.mailbox), port);
  });
});
