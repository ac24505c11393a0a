/**
 * The SharedArrayBuffer mailbox with real workers, carrying a hook request as the adapter's codec
 * writes it: requests (every field, non-ASCII, post and pre, large) make the round trip intact; a
 * worker that never answers leaves the caller waiting only until its deadline, after which the worker
 * can be terminated; a reply that is not valid is refused; a message too large for the mailbox is not
 * written (the slow path takes it).
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { WitHookRequest } from '../../host/codec/wit.js';
import { parseWorkerToHost } from '../../host/engine/executor/fast-messages.js';
import { CallerMailbox, MAILBOX_HEADER_BYTES, MailboxError, WorkerMailbox, createMailboxBuffer } from '../../host/engine/executor/mailbox.js';
import { RequestBytesError, decodeRequest, encodeRequest, hookCodec } from '../../host/transports/component/codec.js';
import { decodeResult } from '../../host/transports/component/result-bytes.js';
import { tsWorker } from '../../scripts/bench/ts-worker.js';

const ENTRY = new URL('./fixtures/mailbox-worker.ts', import.meta.url);
const workers: Worker[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

async function start(behaviour: 'echo' | 'never' | 'garbage' | 'bytes' | 'poll', capacity?: number, decodeOk?: (bytes: Uint8Array) => unknown): Promise<{ worker: Worker; mailbox: CallerMailbox }> {
  const buffer = createMailboxBuffer(capacity);
  const worker = tsWorker(ENTRY, { buffer, behaviour });
  workers.push(worker);
  const [ready] = (await once(worker, 'message')) as [{ type: string }];
  expect(ready.type).toBe('ready');
  return { worker, mailbox: new CallerMailbox(buffer, decodeOk) };
}

/** Post `request` as the codec writes it. */
function post(mailbox: CallerMailbox, id: number, request: WitHookRequest): boolean {
  return mailbox.post(id, (into) => encodeRequest(request, into));
}

/** The decision an echo reply carries (validated as the pool validates a reply). */
function echoed(reply: Awaited<ReturnType<CallerMailbox['waitReply']>>): string {
  if (typeof reply === 'string') throw new Error(`expected a reply, got ${reply}`);
  const parsed = parseWorkerToHost(reply.json);
  if (!parsed.success || parsed.data.type !== 'reply' || parsed.data.outcome.type !== 'ok') throw new Error(`expected the echo, got ${JSON.stringify(reply.json)}`);
  const value = hookCodec.resultFromJson(parsed.data.outcome.value);
  if (value?.tag !== 'ok' || value.decision.tag !== 'deny') throw new Error(`expected a deny, got ${JSON.stringify(value)}`);
  return value.decision.val;
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
        expect(post(mailbox, id, request)).toBe(true);
        expect(JSON.parse(echoed(await mailbox.waitReply(id, 10_000)))).toStrictEqual(request);
      }
    }
  });

  it('refuses a second post while a call is in flight', async () => {
    const { mailbox } = await start('never');
    expect(post(mailbox, 1, PRE)).toBe(true);
    expect(() => post(mailbox, 2, PRE)).toThrow(MailboxError);
  });

  it('a worker that never answers: the caller stops waiting at its deadline and can terminate it', async () => {
    const { worker, mailbox } = await start('never');
    expect(post(mailbox, 1, PRE)).toBe(true);
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

  it('a reply that is not a valid reply message is refused (zod decides)', async () => {
    const { mailbox } = await start('garbage');
    expect(post(mailbox, 7, PRE)).toBe(true);
    const reply = await mailbox.waitReply(7, 10_000);
    if (typeof reply === 'string') throw new Error(`expected a reply, got ${reply}`);
    expect(parseWorkerToHost(reply.json).success).toBe(false);
  });

  it('spills what does not fit: the invoke and the reply go by postMessage, the mailbox keeps the turns', async () => {
    const { worker, mailbox } = await start('echo', 4096);
    const big = { ...PRE, input: JSON.stringify('y'.repeat(5000)) };
    expect(post(mailbox, 1, big)).toBe(false);
    const replied = once(worker, 'message');
    const bytes = new Uint8Array(hookCodec.maxArgsBytes(big));
    worker.postMessage({ type: 'invoke', id: 1, bytes: bytes.subarray(0, encodeRequest(big, bytes)) });
    mailbox.postSpilled(1);
    expect(await mailbox.waitReply(1, 10_000)).toBe('spilled');
    const [reply] = (await replied) as [unknown];
    expect(JSON.parse(echoed({ json: reply }))).toStrictEqual(big);
    // A request that fits, whose echo does not (quotes escaped twice over): only the reply spills.
    const quoted = { ...PRE, input: JSON.stringify('"'.repeat(1500)) };
    const second = once(worker, 'message');
    expect(post(mailbox, 2, quoted)).toBe(true);
    expect(await mailbox.waitReply(2, 10_000)).toBe('spilled');
    expect((await second)[0]).toMatchObject({ type: 'reply', id: 2 });
    // And the next small call goes through the mailbox again.
    expect(post(mailbox, 3, PRE)).toBe(true);
    expect(JSON.parse(echoed(await mailbox.waitReply(3, 10_000)))).toStrictEqual(PRE);
  });

  it('a result as bytes (reply ok) arrives as the reply it stands for; large ones still go as JSON', async () => {
    const { mailbox } = await start('bytes', 4096, decodeResult);
    let id = 0;
    for (const request of REQUESTS.slice(0, 5)) {
      id++;
      expect(post(mailbox, id, request)).toBe(true);
      const reply = await mailbox.waitReply(id, 10_000);
      expect(reply).toMatchObject({ json: { type: 'reply', id, outcome: { type: 'ok', logs: {} } } });
      expect(JSON.parse(echoed(reply))).toStrictEqual(request);
    }
    // A request that fits, whose echo does not fit as bytes nor as JSON: spilled, by message.
    expect(post(mailbox, ++id, { ...PRE, input: JSON.stringify('"'.repeat(1500)) })).toBe(true);
    expect(await mailbox.waitReply(id, 10_000)).toBe('spilled');
  });

  it('refuses result bytes when it has no codec to read them', async () => {
    const { mailbox } = await start('bytes');
    expect(post(mailbox, 1, PRE)).toBe(true);
    await expect(mailbox.waitReply(1, 10_000)).rejects.toBeInstanceOf(MailboxError);
  });

  it('pollReply: nothing while the worker has not answered (after polling that long), the reply once it has', async () => {
    const never = await start('never');
    expect(post(never.mailbox, 1, PRE)).toBe(true);
    const started = performance.now();
    expect(never.mailbox.pollReply(1, 2_000)).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(2);
    const { mailbox } = await start('echo');
    expect(post(mailbox, 1, PRE)).toBe(true);
    // Long enough for any load: the worker's answer ends the poll.
    const reply = mailbox.pollReply(1, 10_000_000);
    expect(reply).toBeDefined();
    expect(JSON.parse(echoed(reply as { json: unknown }))).toStrictEqual(PRE);
  });

  it('says whether the worker was polling for the job: never for one that sleeps, once awake for one that polls', async () => {
    const asleep = await start('bytes', undefined, decodeResult);
    const awake = await start('poll', undefined, decodeResult);
    for (let id = 1; id <= 3; id++) {
      for (const { mailbox } of [asleep, awake]) {
        const posted = mailbox.postPolled(id, (into) => encodeRequest(PRE, into), { job: 1, slot: 0, deadlineMs: 0 });
        expect(posted.fits).toBe(true);
        // A poller polls from its start, and stays awake after each reply.
        expect(posted.polling).toBe(mailbox === awake.mailbox);
        const reply = mailbox === awake.mailbox ? mailbox.pollReply(id, 10_000_000) : await mailbox.waitReply(id, 10_000);
        expect(JSON.parse(echoed(reply as { json: unknown }))).toStrictEqual(PRE);
        // A poller that is not told the reply was taken (no notify) still polls: the next job finds it awake.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  });

  it('close ends the worker loop', async () => {
    const { worker, mailbox } = await start('echo');
    const closed = once(worker, 'message');
    mailbox.close();
    expect(await closed).toStrictEqual([{ type: 'closed' }]);
  });
});

describe('layout checks on arrival: the mailbox\'s header, then the request bytes (no worker needed: the state says a message is there)', () => {
  /** A buffer holding a request header and `data` as the message. */
  function withMessage(data: number[], header: { kind?: number; length?: number; seq?: number } = {}): SharedArrayBuffer {
    const buffer = createMailboxBuffer(256);
    const i32 = new Int32Array(buffer, 0, MAILBOX_HEADER_BYTES / 4);
    new Uint8Array(buffer, MAILBOX_HEADER_BYTES).set(data);
    i32[0] = 1;
    i32[1] = header.seq ?? 1;
    i32[2] = header.length ?? data.length;
    i32[3] = header.kind ?? 1;
    i32[5] = 1; // a call
    return buffer;
  }
  /** What the worker takes out of the mailbox, decoded as the worker runtime does. */
  function takeRequest(buffer: SharedArrayBuffer): unknown {
    const taken = new WorkerMailbox(buffer).take();
    if (taken.type !== 'invoke') return taken;
    return { type: 'invoke', id: taken.id, request: decodeRequest(taken.bytes) };
  }
  const u32 = (n: number): number[] => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
  const str = (bytes: number[]): number[] => [...u32(bytes.length), ...bytes];
  const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
  const fields = (input: number[]): number[] => [...str(ascii('/w')), ...str(ascii('a')), ...str(ascii('c')), ...str(ascii('t')), ...str(input), ...str([])];

  it('decodes a well-formed invoke', () => {
    const taken = takeRequest(withMessage([...u32(1), 0, 0, ...fields(ascii('{}'))]));
    expect(taken).toStrictEqual({ type: 'invoke', id: 1, request: { hookSchema: 1, event: 'pre-tool-use', workspace: '/w', agentId: 'a', toolCallId: 'c', toolName: 't', input: '{}' } });
  });

  it.each([
    ['a message longer than the capacity', withMessage([...u32(1), 0, 0, ...fields(ascii('{}'))], { length: 10_000 })],
    ['a message of another kind', withMessage([...u32(1), 0, 0, ...fields(ascii('{}'))], { kind: 2 })],
  ])('the mailbox refuses %s', (_what, buffer) => {
    expect(() => new WorkerMailbox(buffer).take()).toThrow(MailboxError);
  });

  it.each([
    ['a string running past the message', withMessage([...u32(1), 0, 0, ...str(ascii('/w')), ...u32(200)])],
    ['a message ending inside a length', withMessage([...u32(1), 0, 0, 1, 2])],
    ['invalid UTF-8 in a string', withMessage([...u32(1), 0, 0, ...fields([0xff, 0xfe])])],
    ['an unknown event', withMessage([...u32(1), 7, 0, ...fields(ascii('{}'))])],
    ['bytes after the message', withMessage([...u32(1), 0, 0, ...fields(ascii('{}')), 0])],
  ])('the codec refuses %s', (_what, buffer) => {
    expect(() => takeRequest(buffer)).toThrow(RequestBytesError);
  });

  it('refuses result bytes that are not a result', async () => {
    const buffer = createMailboxBuffer(256);
    const i32 = new Int32Array(buffer, 0, MAILBOX_HEADER_BYTES / 4);
    new Uint8Array(buffer, MAILBOX_HEADER_BYTES).set([9, 0]);
    i32[0] = 2;
    i32[1] = 4;
    i32[2] = 2;
    i32[3] = 5;
    expect(() => new CallerMailbox(buffer, decodeResult).pollReply(4, 0)).toThrow(MailboxError);
  });

  it('refuses a reply to another call', async () => {
    const buffer = createMailboxBuffer(256);
    const reply = new TextEncoder().encode(JSON.stringify({ type: 'reply', id: 9, outcome: { type: 'ok', value: { tag: 'ok', decision: { tag: 'allow' } }, logs: {} } }));
    const i32 = new Int32Array(buffer, 0, MAILBOX_HEADER_BYTES / 4);
    new Uint8Array(buffer, MAILBOX_HEADER_BYTES).set(reply);
    i32[0] = 2;
    i32[1] = 9;
    i32[2] = reply.length;
    i32[3] = 2;
    await expect(new CallerMailbox(buffer).waitReply(8, 1000)).rejects.toBeInstanceOf(MailboxError);
  });
});
