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
  /** One postMessage round trip, with a message the size of a small hook request. */
  roundTrip(): Promise<void>;
  close(): Promise<void>;
}

export function startEchoWorker(): EchoWorker {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));`,
    { eval: true },
  );
  const message = { type: 'invoke', id: 1, request: { hookSchema: 1, event: 'pre-tool-use', workspace: '/tmp', agentId: 'bench', toolCallId: 'call-1', toolName: 'shell', input: '{"command":"git push origin feature"}' } };
  return {
    roundTrip: () =>
      new Promise((resolve) => {
        worker.once('message', () => resolve());
        worker.postMessage(message);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The round trip on its own (its own warm-up), for the baselines section. */
export async function workerRoundTrip(n: number): Promise<Stats> {
  const echo = startEchoWorker();
  try {
    return await measure(() => echo.roundTrip(), { n, warmup: 200 });
  } finally {
    await echo.close();
  }
}
