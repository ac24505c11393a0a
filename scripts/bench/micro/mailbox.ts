/**
 * Block (b): a call's hop to a worker and back through the SharedArrayBuffer mailbox (request bytes
 * copied in, the reply validated on arrival) against today's `postMessage` of the invoke and reply
 * messages (structured clone both ways, the reply validated by zod as the pool does).
 */
import { Worker } from 'node:worker_threads';
import { toWitRequest } from '../../../host/codec/wit.js';
import { parseWorkerToHost } from '../../../host/engine/executor/fast-messages.js';
import { WorkerToHost } from '../../../host/engine/executor/messages.js';
import { encodeRequest, hookCodec } from '../../../host/transports/component/codec.js';
import { CallerMailbox, createMailboxBuffer } from '../../../host/engine/executor/mailbox.js';
import { REQUEST } from '../guests.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import { tsWorker } from '../ts-worker.js';
import type { MicroPlan } from './plan.js';

export async function benchMailbox(plan: MicroPlan): Promise<Block[]> {
  const record = toWitRequest(REQUEST);
  const reply = { type: 'reply', id: 0, outcome: { type: 'ok', value: { tag: 'ok', decision: { tag: 'allow' } }, logs: {} } };
  const posted = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (m) => parentPort.postMessage({ ...${JSON.stringify(reply)}, id: m.id }));`,
    { eval: true },
  );
  let pending: ((value: unknown) => void) | undefined;
  posted.on('message', (m: unknown) => {
    const resolve = pending;
    pending = undefined;
    resolve?.(m);
  });
  const buffer = createMailboxBuffer();
  const boxed = tsWorker(new URL('./mailbox-worker.ts', import.meta.url), { buffer });
  const mailbox = new CallerMailbox(buffer);
  let id = 0;
  try {
    const m = await measureInterleaved(
      {
        before: async () => {
          const answer = await new Promise<unknown>((resolve) => {
            pending = resolve;
            posted.postMessage({ type: 'invoke', id: ++id, request: record });
          });
          if (!WorkerToHost.safeParse(answer).success) throw new Error('bad reply');
        },
        after: async () => {
          const call = ++id;
          if (!mailbox.post(call, (into) => encodeRequest(record, into))) throw new Error('did not fit');
          const answer = await mailbox.waitReply(call, 10_000);
          if (typeof answer === 'string') throw new Error(answer);
          // Validated as the pool does: the envelope, then the result's value by the codec.
          const parsed = parseWorkerToHost(answer.json);
          if (!parsed.success || parsed.data.type !== 'reply' || parsed.data.outcome.type !== 'ok' || hookCodec.resultFromJson(parsed.data.outcome.value) === undefined) throw new Error('bad reply');
        },
      },
      plan.worker,
    );
    return [{ block: 'SharedArrayBuffer mailbox', case: 'worker hop with the invoke and its reply: postMessage + zod → mailbox', before: m.before, after: m.after }];
  } finally {
    mailbox.close();
    await Promise.all([posted.terminate(), boxed.terminate()]);
  }
}
