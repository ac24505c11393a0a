import path from 'node:path';
import { openAuditFile, type AuditFileSink } from '../audit/file-sink.js';

/** The `--audit FILE` of a command that runs hooks: its sink, and a way to learn whether it lost events. */
export interface CliAudit {
  /** The sink for `--audit`, when given (undefined when it is the config's own file, already written). */
  readonly sink: AuditFileSink | undefined;
  /** Report on stderr (once per file) that an audit file lost events; given to the config's file too. */
  readonly onError: (file: string) => (error: Error) => void;
  /** Close the `--audit` sink; false when any audit file lost events (each was reported). */
  finish(): Promise<boolean>;
}

/**
 * Open `--audit FILE` before anything runs: a path that cannot be written is a usage error (exit 2),
 * never a silent loss. Events are appended (JSON lines); a write failure later is reported once on
 * stderr, the hooks go on deciding, and the command ends with exit status 1. When `file` is the
 * config's own `audit` file, it is written once, not twice.
 */
export async function openCliAudit(command: string, file: string | undefined, configAudit?: string): Promise<CliAudit | string> {
  let lost = false;
  const onError = (target: string) => (error: Error): void => {
    lost = true;
    process.stderr.write(`basis-hooks ${command}: audit: events are being lost: ${target}: ${error.message} (the hooks' decisions are unaffected)\n`);
  };
  let sink: AuditFileSink | undefined;
  if (file !== undefined && (configAudit === undefined || path.resolve(file) !== path.resolve(configAudit))) {
    try {
      sink = await openAuditFile(file, { onError: onError(file) });
    } catch (error) {
      return `cannot open --audit ${JSON.stringify(file)} for appending (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }
  return {
    sink,
    onError,
    async finish() {
      if (sink !== undefined) {
        const stats = await sink.close();
        if (stats.dropped > 0) {
          lost = true;
          process.stderr.write(`basis-hooks ${command}: audit: ${stats.dropped} event(s) were not written to ${stats.file} (${stats.written} were)\n`);
        }
      }
      return !lost;
    },
  };
}
