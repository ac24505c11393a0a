import { open, type FileHandle } from 'node:fs/promises';
import type { AuditEvent } from '../contract/audit.js';

/** Options of {@link openAuditFile}. */
export interface AuditFileOptions {
  /**
   * Told once, at the first event that could not be written: a write error (the file is then not
   * written to again) or the buffer cap reached (events are dropped until the writer catches up).
   * Every lost event is counted (see {@link AuditFileStats}). Default: a process
   * warning on stderr (`BASIS_HOOKS_AUDIT`). It never reaches the chain: decisions are unaffected.
   */
  readonly onError?: (error: Error) => void;
  /** Most bytes of events waiting to be written before new ones are dropped (default 16 MiB). */
  readonly maxBufferedBytes?: number;
}

/** What a file sink did, once closed. */
export interface AuditFileStats {
  readonly file: string;
  /** Events written to the file. */
  readonly written: number;
  /** Events lost (write errors, or more than the buffer cap waiting). */
  readonly dropped: number;
  /** The first error, when events were lost. */
  readonly error?: Error;
}

/** An audit sink that appends JSON lines to a file; give it to `HookRunner`'s `audit` option. */
export interface AuditFileSink {
  readonly file: string;
  /** Queue one event (never blocks, never throws). */
  write(event: AuditEvent): void;
  /** Write what is queued, close the file and say what was written and lost. Idempotent. */
  close(): Promise<AuditFileStats>;
}

const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * Open `file` for appending (created when missing) and return a sink writing one JSON line per
 * event. Opening is done now, so a path that cannot be written rejects here — before any call runs
 * (the error is Node's, with its `code`: ENOENT, EACCES, EISDIR...).
 *
 * Writing never blocks the chain: events are queued and appended in batches in the background. A
 * failure to write is reported once (`onError`) and counted; the chain goes on — an audit sink
 * observes decisions, it never makes one. A writer slower than the calls is bounded by
 * `maxBufferedBytes`; past it, events are dropped and counted rather than held without limit.
 *
 * @example
 * const sink = await openAuditFile('audit.jsonl');
 * const runner = new HookRunner(hooks, { audit: sink });
 * // ...
 * await runner.close(); // closes the sink too
 */
export async function openAuditFile(file: string, options: AuditFileOptions = {}): Promise<AuditFileSink> {
  const handle = await open(file, 'a');
  return new FileSink(file, handle, options);
}

class FileSink implements AuditFileSink {
  readonly file: string;
  readonly #handle: FileHandle;
  readonly #cap: number;
  readonly #onError: (error: Error) => void;
  #queue: string[] = [];
  #queuedBytes = 0;
  #pumping: Promise<void> | undefined;
  #written = 0;
  #dropped = 0;
  /** The first problem, reported once. */
  #error: Error | undefined;
  /** A write failed: the file is not written to again. */
  #broken = false;
  #closing: Promise<AuditFileStats> | undefined;

  constructor(file: string, handle: FileHandle, options: AuditFileOptions) {
    this.file = file;
    this.#handle = handle;
    this.#cap = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#onError = options.onError ?? ((error) => process.emitWarning(`audit file ${file}: ${error.message} (the hooks' decisions are unaffected; lost events are counted)`, { code: 'BASIS_HOOKS_AUDIT' }));
  }

  write(event: AuditEvent): void {
    if (this.#broken || this.#closing !== undefined) {
      this.#dropped += 1;
      return;
    }
    const line = `${JSON.stringify(event)}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.#queuedBytes + bytes > this.#cap) {
      // Transient: once the writer catches up, events are written again.
      this.#fail(new Error(`more than ${this.#cap} bytes of events waiting to be written (the file is slower than the calls); events are dropped while it is`));
      this.#dropped += 1;
      return;
    }
    this.#queue.push(line);
    this.#queuedBytes += bytes;
    this.#pumping ??= this.#pump();
  }

  close(): Promise<AuditFileStats> {
    this.#closing ??= (async () => {
      await this.#pumping;
      await this.#handle.close().catch((error: unknown) => this.#fail(asError(error)));
      const stats = { file: this.file, written: this.#written, dropped: this.#dropped };
      return this.#error === undefined ? stats : { ...stats, error: this.#error };
    })();
    return this.#closing;
  }

  /** Append batches until the queue is empty; a failure drops what was queued and stops writing. */
  async #pump(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      this.#queuedBytes = 0;
      try {
        await this.#handle.appendFile(batch.join(''));
        this.#written += batch.length;
      } catch (error) {
        this.#broken = true;
        this.#fail(asError(error));
        this.#dropped += batch.length + this.#queue.length;
        this.#queue = [];
        this.#queuedBytes = 0;
        break;
      }
    }
    this.#pumping = undefined;
  }

  #fail(error: Error): void {
    if (this.#error !== undefined) return;
    this.#error = error;
    try {
      this.#onError(error);
    } catch {
      // A reporter that throws must not reach the chain.
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
