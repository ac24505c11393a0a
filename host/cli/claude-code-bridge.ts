import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunner } from '../config/create-runner.js';
import { loadConfig } from '../config/load.js';
import type { HooksConfig } from '../config/schema.js';
import { isBasisHooksError } from '../errors/basis-hooks-error.js';
import { ClaudeCodeBridge, oneLine } from '../integrations/claude-code/bridge.js';
import type { BridgeEndpoint } from '../integrations/claude-code/settings.js';
import type { HookRunner } from '../runner/runner.js';
import { contextFromEnvironment } from '../telemetry/propagation.js';
import { openCliAudit, type CliAudit } from './audit-option.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './command.js';
import { readStdin, write } from './io.js';
import { startOtlpForCommand, type OtlpExport } from './otlp-option.js';
import { refusalLog, serverToken, type ServerOptions } from './server-options.js';

/*
 * A process per tool call: what runOnce needs is imported here, the HTTP server and the settings
 * printer only by the modes that use them.
 */

/** The default address of --http (loopback). */
export const DEFAULT_HOST = '127.0.0.1';

/** Claude Code's "block" exit status: the one failure it does not treat as "proceed". */
export const EXIT_BLOCK = 2;

const PREFIX = 'basis-hooks claude-code:';

function describe(error: unknown): string {
  if (isBasisHooksError(error)) return error.name === 'ConfigError' ? error.message : `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Block the call: one line on stderr (Claude Code shows it), exit 2. */
function block(reason: string): number {
  process.stderr.write(`${PREFIX} ${oneLine(reason)}\n`);
  return EXIT_BLOCK;
}

/** The chain of a config, with `--audit FILE` (opened first: a file that cannot be written is refused). */
async function loadRunner(configFile: string, auditFile: string | undefined): Promise<{ runner: HookRunner; audit: CliAudit }> {
  const config = await loadConfig(configFile);
  const audit = await openCliAudit('claude-code', auditFile, config.audit);
  if (typeof audit === 'string') throw new Error(audit);
  try {
    return { runner: await createRunner(config, { ...(audit.sink === undefined ? {} : { audit: audit.sink }), on_audit_file_error: audit.onError(config.audit ?? '') }), audit };
  } catch (error) {
    await audit.finish();
    throw error;
  }
}

/**
 * One event: stdin in, the answer out. Every way this can go wrong ends in exit 2 — a crash Node
 * would report as exit 1 included, since Claude Code lets the call proceed on any status but 2.
 */
export async function runOnce(options: { readonly configFile: string; readonly approveRewrites: boolean; readonly auditFile?: string; readonly otlp?: string }): Promise<number> {
  const crash = (error: unknown): void => {
    process.stderr.write(`${PREFIX} internal error: ${oneLine(describe(error))}\n`);
    process.exit(EXIT_BLOCK);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // Read the event while the hooks load.
  const input = readStdin();
  input.catch(() => undefined);
  let otlp: OtlpExport | undefined;
  let loaded: { runner: HookRunner; audit: CliAudit };
  try {
    // Only with --otlp: Claude Code's own OTEL_* variables must not make every event load an exporter.
    const started = await startOtlpForCommand('claude-code', options.otlp, quietLog, { environment: false, announce: false });
    if (typeof started === 'string') return block(started);
    otlp = started;
    loaded = await loadRunner(options.configFile, options.auditFile);
  } catch (error) {
    await otlp?.shutdown();
    return block(describe(error));
  }
  const bridge = new ClaudeCodeBridge(loaded.runner, { approveRewrites: options.approveRewrites });
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // Claude Code, tracing, puts its span in the environment of the processes it starts.
    const answer = await bridge.handle(await input, interrupt.signal, undefined, otlp === undefined ? undefined : contextFromEnvironment());
    if (answer.kind === 'blocked') return block(answer.reason);
    if (answer.output !== undefined) await write(process.stdout, `${JSON.stringify(answer.output)}\n`);
    return EXIT_OK;
  } catch (error) {
    return block(`internal error: ${describe(error)}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await bridge.close();
    // The answer stands whatever the audit file did; a loss was reported on stderr.
    await loaded.audit.finish();
    await otlp?.shutdown();
  }
}

/** What the SDK says about a failed export, in a command hook: on stderr, one line (Claude Code shows it in verbose mode). */
function quietLog(line: string): void {
  process.stderr.write(`${PREFIX} ${line}\n`);
}

/** Serve Claude Code's http hooks until SIGINT/SIGTERM. */
export async function serveHttp(
  options: { readonly configFile: string; readonly port: number; readonly host: string; readonly approveRewrites: boolean; readonly auditFile?: string; readonly otlp?: string } & ServerOptions,
): Promise<number> {
  const otlp = await startOtlpForCommand('claude-code', options.otlp, quietLog);
  if (typeof otlp === 'string') {
    process.stderr.write(`${PREFIX} ${otlp}\n`);
    return EXIT_USAGE;
  }
  try {
    return await serveHttpExporting(options);
  } finally {
    await otlp?.shutdown();
  }
}

async function serveHttpExporting(
  options: { readonly configFile: string; readonly port: number; readonly host: string; readonly approveRewrites: boolean; readonly auditFile?: string } & ServerOptions,
): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`${PREFIX} ${line}\n`);
  const token = await serverToken(options, log);
  if (typeof token === 'string') {
    log(token);
    return EXIT_USAGE;
  }
  let loaded: { runner: HookRunner; audit: CliAudit };
  try {
    loaded = await loadRunner(options.configFile, options.auditFile);
  } catch (error) {
    process.stderr.write(`${PREFIX} ${describe(error)}\n`);
    return EXIT_USAGE;
  }
  const bridge = new ClaudeCodeBridge(loaded.runner, { approveRewrites: options.approveRewrites });
  const { serveClaudeCode } = await import('../integrations/claude-code/http.js');
  let http;
  try {
    http = await serveClaudeCode(bridge, {
      port: options.port,
      host: options.host,
      ...token,
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      onRefusal: refusalLog(log),
    });
  } catch (error) {
    await bridge.close();
    await loaded.audit.finish();
    process.stderr.write(`${PREFIX} cannot listen on ${options.host}:${options.port}: ${describe(error)}\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`${PREFIX} listening on ${http.url}${token.token === undefined ? ' (no --token-file: any local process can ask for decisions)' : ' (bearer token required)'}\n`);
  if (!isLoopback(options.host)) {
    process.stderr.write(`${PREFIX} warning: ${options.host} is not a loopback address: anyone who can reach it can ask these hooks for decisions\n`);
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await http.close();
  await bridge.close();
  return (await loaded.audit.finish()) ? EXIT_OK : EXIT_FAILED;
}

/**
 * How Claude Code should start the bridge: the bundled entry (dist/cli/claude-code/main.js, the
 * fastest start) when the build made it, else the full CLI. Found from the package root, since this
 * module runs both from dist/cli/ and from inside that bundle.
 */
function defaultInvocation(quote: (arg: string) => string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'dist', 'cli', 'main.js'))) break;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the basis-hooks package around this module');
    dir = parent;
  }
  const node = quote(process.execPath);
  const fast = path.join(dir, 'dist', 'cli', 'claude-code', 'main.js');
  return existsSync(fast) ? `${node} ${quote(fast)}` : `${node} ${quote(path.join(dir, 'dist', 'cli', 'main.js'))} claude-code`;
}

/** Print the `.claude/settings.json` `hooks` block for a config. */
export async function printSettings(options: {
  readonly configFile: string;
  readonly http?: { readonly port: number; readonly host: string } & ServerOptions;
  readonly command?: string;
  readonly approveRewrites: boolean;
  readonly auditFile?: string;
  readonly otlp?: string;
}): Promise<number> {
  let config: HooksConfig;
  try {
    config = await loadConfig(options.configFile);
  } catch (error) {
    process.stderr.write(`${PREFIX} ${describe(error)}\n`);
    return EXIT_USAGE;
  }
  const { settingsFor, shellQuote } = await import('../integrations/claude-code/settings.js');
  let endpoint: BridgeEndpoint;
  if (options.http !== undefined) {
    const host = options.http.host.includes(':') ? `[${options.http.host}]` : options.http.host;
    const token = await serverToken(options.http, (line) => void process.stderr.write(`${PREFIX} ${line}\n`));
    if (typeof token === 'string') {
      process.stderr.write(`${PREFIX} ${token}\n`);
      return EXIT_USAGE;
    }
    const headers = token.token === undefined ? {} : { headers: { Authorization: `Bearer ${token.token}` } };
    endpoint = { type: 'http', url: `http://${host}:${options.http.port}/`, ...headers };
    process.stderr.write(
      `${PREFIX} note: Claude Code lets a call proceed when an http hook's server is down; each http hook is paired with a guard command that blocks then (it needs curl)` +
        `${token.token === undefined ? '' : '; these settings hold the bearer token: put them in .claude/settings.local.json, which is not committed'}\n`,
    );
  } else {
    // --command names basis-hooks itself (e.g. "npx basis-hooks"): the subcommand follows it.
    const prefix = options.command === undefined ? defaultInvocation(shellQuote) : `${options.command} claude-code`;
    const flags = `${options.approveRewrites ? ' --approve-rewrites' : ''}${options.auditFile === undefined ? '' : ` --audit ${shellQuote(path.resolve(options.auditFile))}`}${options.otlp === undefined ? '' : ` --otlp ${shellQuote(options.otlp)}`}`;
    endpoint = { type: 'command', command: `${prefix} --config ${shellQuote(path.resolve(options.configFile))}${flags}` };
  }
  await write(process.stdout, `${JSON.stringify(settingsFor(config, endpoint), null, 2)}\n`);
  return EXIT_OK;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
