/**
 * The worker side of the assembled worker prototype: one instance of the component (as the pool's
 * worker makes it), called through the direct caller, fed by the mailbox.
 */
import { workerData } from 'node:worker_threads';
import { WorkerMailbox } from '../../../host/transports/component/worker/mailbox.js';
import { instantiateBothWays } from '../raw.js';

const { buffer, path, cacheDir, maxOutputBytes } = workerData as { buffer: SharedArrayBuffer; path: string; cacheDir: string; maxOutputBytes: number };
const mailbox = new WorkerMailbox(buffer);
const both = await instantiateBothWays(path, cacheDir);
const direct = both.direct;
if (direct === undefined) throw new Error(`not direct-callable: ${both.whyNot}`);
for (;;) {
  const taken = mailbox.take();
  if (taken.type !== 'invoke') break;
  const outcome = direct.call(taken.request, maxOutputBytes);
  const logs = both.sandbox.takeLogs();
  if (outcome.type !== 'ok') throw new Error(`the prototype only runs answering guests: ${outcome.type}`);
  mailbox.reply(taken.id, { type: 'result', id: taken.id, decision: outcome.decision, logs: { ...logs } });
}
