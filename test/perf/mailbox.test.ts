/**
 * The SharedArrayBuffer mailbox with real workers: requests (every field, non-ASCII, post and pre,
 * large) make the round trip intact; a worker that never answers leaves the caller waiting only until
 * its deadline, after which the worker can be terminated; a reply that is not valid is refused; a
 * message too large for the mailbox is not written (the slow path takes it).
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { WitHookRequest } from '../../host/codec/wit.js';
import { CallerMailbox, MailboxError, createMailboxBuffer } from '../../host/transports/component/worker/mailbox.js';
import { tsWorker } from '../../scripts/bench/ts-worker.js';

const ENTRY = new URL('./fixtures/mailbox-worker.ts', import.meta.url);
const workers: Worker[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

async function start(behaviour: 'echo' | 'never' | 'garbage', capacity?: number): Promise<{ worker: Worker; mailbox: CallerMailbox }> {
  const buffer = createMailboxBuffer(capacity);
  const worker = tsWorker(ENTRY, { buffer, behaviour });
  workers.push(worker);
  const [ready] = (await once(worker, 'message')) as [{ type: string }];
  expect(ready.type).toBe('ready');
  return { worker, mailbox: new CallerMailbox(buffer) };
}

const PRE: WitHookRequest = { hookSchema: 1, event: 'pre-tool-use', workspace: '/repo', agentId: 'a', toolCallId: 'c1', toolName: 'shell', input: '{"command":"git push"}' };
const REQUESTS: WitHookRequest[] = [
  PRE,
  { ...PRE, workspace: '/tmp/répertoire', agentId: '\u{1F916}', toolName: 'shell-ß', input: '"日本語 \u{1F600}"' },
  { ...PRE, workspace: '', agentId: '', toolCallId: '', toolName: '', input: '' },
  { ...PRE, event: 'post-tool-use', output: '{"lines":["a","é"]}', isError: true },
  { ...PRE, event: 'post-tool-use', output: '', isError: false },
  { ...PRE, input: JSON.stringify('x'.repeat(200_000)) },
];

describe('mailbox round trip with a real worker', () => {
  it('carries every request intact, one after another, and the reply back', async () => {
    const { mailbox } = await start('echo');
    let id = 0;
    for (let round = 0; round < 3; round++) {
      for (const request of REQUESTS) {
        id++;
        expect(mailbox.post(id, request)).toBe(true);
        const reply = await mailbox.waitReply(id, 10_000);
        expect(reply).not.toBe('timeout');
        if (reply === 'timeout' || reply.type !== 'result' || reply.decision.tag !== 'deny') throw new Error('expected the echo');
        expect(JSON.parse(reply.decision.val)).toStrictEqual(request);
      }
    }
  });

  it('refuses a second post while a call is in flight', async () => {
    const { mailbox } = await start('never');
    expect(mailbox.post(1, PRE)).toBe(true);
    expect(() => mailbox.post(2, PRE)).toThrow(MailboxError);
  });

  it('a worker that never answers: the caller stops waiting at its deadline and can terminate it', async () => {
    const { worker, mailbox } = await start('never');
    expect(mailbox.post(1, PRE)).toBe(true);
    const started = performance.now();
    expect(await mailbox.waitReply(1, 200)).toBe('timeout');
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(195);
    // Generous bound (shared, loaded machine): the deadline, not the worker, ends the wait.
    expect(waited).toBeLessThan(200 + 1000);
    const exit = once(worker, 'exit');
    await worker.terminate();
    await exit;
  });

  it('refuses a reply that is not a valid reply message (zod decides)', async () => {
    const { mailbox } = await start('garbage');
    expect(mailbox.post(7, PRE)).toBe(true);
    await expect(mailbox.waitReply(7, 10_000)).rejects.toBeInstanceOf(MailboxError);
  });

  it('does not write a request larger than its capacity (the slow path takes it)', async () => {
    const { mailbox } = await start('echo', 4096);
    expect(mailbox.post(1, { ...PRE, input: JSON.stringify('y'.repeat(5000)) })).toBe(false);
    // Still idle: the next call that fits goes through.
    expect(mailbox.post(2, PRE)).toBe(true);
    expect(await mailbox.waitReply(2, 10_000)).toMatchObject({ type: 'result', id: 2 });
  });

  it('a reply too large for the mailbox is not written either: the worker says so by postMessage', async () => {
    const { worker, mailbox } = await start('echo', 4096);
    const message = once(worker, 'message');
    // The request fits; its echo (quotes escaped twice over) does not.
    expect(mailbox.post(3, { ...PRE, input: JSON.stringify('"'.repeat(1500)) })).toBe(true);
    const [note] = (await message) as [{ type: string; id: number }];
    expect(note).toStrictEqual({ type: 'too-large', id: 3 });
  });

  it('close ends the worker loop', async () => {
    const { worker, mailbox } = await start('echo');
    const closed = once(worker, 'message');
    mailbox.close();
    expect(await closed).toStrictEqual([{ type: 'closed' }]);
  });
});
