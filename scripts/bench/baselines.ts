/**
 * Baselines measured in the same run as the hooks they are compared with: what the host adds is only
 * meaningful against what the underlying mechanism costs on this machine, now.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { measure, type Stats } from './stats.js';

/**
 * A bare spawn of `argv` with piped stdio, writing `stdin`, draining the output and waiting for exit:
 * what any subprocess hook costs before the host does anything.
 */
export function spawnOnce(argv: readonly string[], stdin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    if (file === undefined) throw new Error('empty argv');
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', () => resolve());
    child.stdin.end(stdin);
  });
}

/** A worker that echoes every message back: the floor of any worker-isolated call. */
export interface EchoWorker {
  /** One round trip, with a message the size of a small hook request. */
  roundTrip(): Promise<void>;
  close(): Promise<void>;
}

/** The invoke message the pool posts today (a WIT record), for the postMessage round trip. */
const INVOKE = {
  type: 'invoke',
  id: 1,
  request: { hookSchema: 1, event: 'pre-tool-use', workspace: '/tmp', agentId: 'bench', toolCallId: 'call-1', toolName: 'shell', input: '{"command":"git push origin feature"}' },
};

/**
 * `postMessage` to a worker that echoes, with one persistent listener on each side (as the pool has),
 * not a `once()` per call: the message is structured-cloned both ways.
 */
export function startEchoWorker(): EchoWorker {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));`,
    { eval: true },
  );
  let pending: (() => void) | undefined;
  worker.on('message', () => {
    const resolve = pending;
    pending = undefined;
    resolve?.();
  });
  return {
    roundTrip: () =>
      new Promise<void>((resolve) => {
        pending = resolve;
        worker.postMessage(INVOKE);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/**
 * The bare SharedArrayBuffer round trip the mailbox is built on: the worker blocks in `Atomics.wait`,
 * the caller flips a flag, notifies and awaits `Atomics.waitAsync` for the flag to flip back. No
 * payload: the cost of the hop alone.
 */
export function startAtomicsWorker(): EchoWorker {
  const sab = new SharedArrayBuffer(8);
  const flag = new Int32Array(sab);
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const flag = new Int32Array(workerData);
     for (;;) {
       Atomics.wait(flag, 0, 0);
       if (Atomics.load(flag, 0) === 2) break;
       Atomics.store(flag, 0, 0);
       Atomics.notify(flag, 0);
     }`,
    { eval: true, workerData: sab },
  );
  const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } }).waitAsync;
  return {
    roundTrip: async () => {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      while (Atomics.load(flag, 0) === 1) {
        const waited = waitAsync(flag, 0, 1);
        if (waited.async) await waited.value;
      }
    },
    close: async () => {
      Atomics.store(flag, 0, 2);
      Atomics.notify(flag, 0);
      await worker.terminate();
    },
  };
}

/** The round trip on its own (its own warm-up), for the baselines section. */
export async function workerRoundTrip(n: number, start: () => EchoWorker = startEchoWorker): Promise<Stats> {
  const echo = start();
  try {
    return await measure(() => echo.roundTrip(), { n, warmup: 200 });
  } finally {
    await echo.close();
  }
}

/** Where JSON results go, so the engine cannot drop the work. */
export let jsonSink: unknown;

/**
 * The JSON floor: `JSON.stringify` + `JSON.parse` of the request and of an answer — what any hook
 * host that speaks JSON pays at the least. Every figure is also given as a ratio to it.
 */
export function jsonFloor(request: unknown, answer: unknown): () => void {
  return () => {
    jsonSink = JSON.parse(JSON.stringify(request));
    jsonSink = JSON.parse(JSON.stringify(answer));
  };
}
