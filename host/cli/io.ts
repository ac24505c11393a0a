import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/**
 * Write to a stream, respecting backpressure: when the stream's buffer is full, wait for `drain`
 * before the next write, so a run of multi-megabyte outcomes never piles up in memory. Rejects when
 * the stream errors (e.g. EPIPE when the reader went away).
 */
export async function write(stream: Writable, text: string): Promise<void> {
  // A destroyed stream (the reader went away) would never emit `drain`: fail instead of waiting forever.
  if (stream.destroyed) throw Object.assign(new Error('output stream is closed'), { code: 'EPIPE' });
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Resolve once everything written to `stream` so far has been handed to the OS. The process may then
 * end without losing output — unlike `process.exit()`, which drops what is still buffered in a pipe.
 */
export async function flush(stream: Writable): Promise<void> {
  if (stream.destroyed) return;
  await new Promise<void>((resolve, reject) => {
    stream.write('', (error) => (error ? reject(error) : resolve()));
  });
}

/** All of stdin, as UTF-8 text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, or stdin's for `-`. */
export async function readInput(file: string | undefined): Promise<string> {
  return file === undefined || file === '-' ? readStdin() : readFile(file, 'utf8');
}
