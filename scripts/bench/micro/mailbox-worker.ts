/** The worker side of the mailbox bench: answers every invoke with the guard's allow. */
import { workerData } from 'node:worker_threads';
import { WorkerMailbox } from '../../../host/engine/executor/mailbox.js';

const mailbox = new WorkerMailbox((workerData as { buffer: SharedArrayBuffer }).buffer);
for (;;) {
  const taken = mailbox.take();
  if (taken.type === 'closed') break;
  mailbox.reply(taken.id, { type: 'result', id: taken.id, decision: { tag: 'allow' }, logs: {} });
}
