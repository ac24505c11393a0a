/**
 * A guest worker: instantiates one component (modules compiled and instrumented by the host, posted in
 * `init`) with its sandbox, metered like in-thread instances, and answers `invoke` messages one at a
 * time. The host also terminates it if a call outlives its deadline by more than a grace period.
 * Started from TypeScript under tsx in development, from dist/ when built.
 */
import { parentPort } from 'node:worker_threads';
import { HostToWorker, type InitMessage, type WorkerToHost } from '../messages.js';
import { GuestInstance, asGlue } from '../guest.js';

const port = parentPort;
if (port === null) throw new Error('worker/entry must run in a worker thread');

function post(message: WorkerToHost): void {
  port?.postMessage(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

let guest: GuestInstance | undefined;

async function start(init: InitMessage): Promise<void> {
  try {
    const { type: _type, glueUrl, ...spec } = init;
    guest = new GuestInstance(spec, asGlue(await import(glueUrl)));
    guest.start();
    post({ type: 'ready' });
  } catch (error) {
    post({ type: 'init-failed', message: `cannot instantiate the component: ${describe(error)}` });
  }
}

async function handle(raw: unknown): Promise<void> {
  const parsed = HostToWorker.safeParse(raw);
  if (!parsed.success) {
    // Not a message from our host: nothing sensible to answer; end the worker loudly.
    throw new Error(`guest worker: invalid message from the host: ${parsed.error.message}`);
  }
  const message = parsed.data;
  if (message.type === 'init') {
    await start(message);
    return;
  }
  if (guest === undefined) throw new Error('guest worker: invoke before the instance is ready');
  // A call after a discarded instance makes a fresh one first, within the call's own deadline.
  post({ ...guest.call(message.request), id: message.id });
}

// One message at a time, in order: the host sends an invoke only to an idle worker.
let queue = Promise.resolve();
port.on('message', (raw: unknown) => {
  queue = queue
    .then(() => handle(raw))
    .catch((error: unknown) => {
      // An unexpected failure of the worker itself: surface it as the worker's error event (the host
      // then replaces the worker and fails the call it was running).
      setImmediate(() => {
        throw error;
      });
    });
});
