/** The worker side of the mailbox bench: answers every invoke with the guard's allow. */
import { workerData } from 'node:worker_threads';
import { WorkerMailbox } from '../../../host/engine/executor/mailbox.js';
import { decodeRequest } from '../../../host/transports/component/codec.js';

const mailbox = new WorkerMailbox((workerData as { buffer: SharedArrayBuffer }).buffer);
for (;;) {
  const taken = mailbox.take();
  if (taken.type === 'closed') break;
  // Read as the worker runtime reads a call (the arguments decoded by the hook's codec).
  if (taken.type === 'invoke') decodeRequest(taken.bytes);
  mailbox.reply(taken.id, { type: 'reply', id: taken.id, outcome: { type: 'ok', value: { tag: 'ok', decision: { tag: 'allow' } }, logs: {} } });
}
