import { openAuditFile, type AuditFileOptions, type AuditFileSink } from '../audit/file-sink.js';
import { ConfigError } from '../errors/config-error.js';
import type { AuditSink } from '../runner/audit.js';
import type { HooksConfig } from './schema.js';

/** Options about a config's audit stream, for {@link createRunner}. */
export interface ConfigAuditOptions {
  /** Sinks besides the config's `audit` file: callbacks, or files opened with `openAuditFile`. */
  readonly audit?: AuditSink | readonly AuditSink[];
  /**
   * Open the config's `audit` file (default true). `basis-hooks check --cases` and `test` pass false:
   * rehearsals are not live traffic and do not belong in the live audit log.
   */
  readonly config_audit?: boolean;
  /** How the config's audit file reports that it lost events (default: a process warning, once). */
  readonly on_audit_file_error?: AuditFileOptions['onError'];
}

/**
 * The sinks a runner built from `config` gets: the config's `audit` file (opened now, so a path that
 * cannot be written is a `ConfigError` before any hook loads) and the caller's own.
 */
export async function configAuditSinks(config: HooksConfig, file: string, options: ConfigAuditOptions): Promise<AuditSink[]> {
  const sinks: AuditSink[] = [];
  if (config.audit !== undefined && options.config_audit !== false) {
    let sink: AuditFileSink;
    try {
      sink = await openAuditFile(config.audit, options.on_audit_file_error === undefined ? {} : { onError: options.on_audit_file_error });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError('config_invalid', file, [{ path: 'audit', message: `cannot open ${JSON.stringify(config.audit)} for appending (${code})` }], { cause: error });
    }
    sinks.push(sink);
  }
  const extra = options.audit;
  if (extra !== undefined) sinks.push(...(typeof extra === 'function' || !Array.isArray(extra) ? [extra as AuditSink] : (extra as readonly AuditSink[])));
  return sinks;
}
