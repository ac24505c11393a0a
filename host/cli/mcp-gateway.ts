import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDirectory } from '../transports/subprocess/check.js';
import { createRunner } from '../config/create-runner.js';
import { loadConfig } from '../config/load.js';
import type { HooksConfig } from '../config/schema.js';
import { isTokenSetupError, McpGateway, McpHttpGateway, TokenVerifier } from '../integrations/mcp/index.js';
import type { HookRunner } from '../runner/runner.js';
import { openCliAudit, type CliAudit } from './audit-option.js';
import { EXIT_USAGE } from './command.js';
import { startOtlpForCommand } from './otlp-option.js';
import type { GatewayInvocation } from './mcp-flags.js';
import { describeError } from './report.js';

export type { GatewayInvocation } from './mcp-flags.js';

const SIGNAL_STATUS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * The body of `basis-hooks mcp`: load the hooks (components included) before anything starts — a
 * gate that is not armed must not pass traffic — then start (or reach) the server and relay: over
 * stdio until one side ends, or over HTTP until a signal stops it.
 */
export async function runGateway(request: GatewayInvocation): Promise<number> {
  const say = (line: string): void => void process.stderr.write(`basis-hooks mcp: ${line}\n`);
  // Hooks run with the call's workspace as their cwd: it must not depend on ours.
  const invocation = { ...request, workspace: path.resolve(request.workspace) };
  if (!(await isDirectory(invocation.workspace))) {
    say(`--workspace ${JSON.stringify(invocation.workspace)} is not a directory`);
    return EXIT_USAGE;
  }
  // Started first, so the first chain is recorded; stopped last, so the last spans are flushed.
  const otlp = await startOtlpForCommand('mcp', invocation.otlp, say);
  if (typeof otlp === 'string') {
    say(otlp);
    return EXIT_USAGE;
  }
  try {
    return await gatewayExporting(invocation, say);
  } finally {
    await otlp?.shutdown();
  }
}

async function gatewayExporting(invocation: GatewayInvocation & { workspace: string }, say: (line: string) => void): Promise<number> {
  let runner: HookRunner;
  let audit: CliAudit | undefined;
  let config: HooksConfig;
  let stateSecret: Buffer | undefined;
  let verifier: TokenVerifier | undefined;
  try {
    if (invocation.stateSecretFile !== undefined) stateSecret = await readFile(invocation.stateSecretFile);
    if (stateSecret !== undefined && stateSecret.length < 16) {
      say(`--state-secret-file ${JSON.stringify(invocation.stateSecretFile)} holds ${stateSecret.length} bytes; a key needs at least 16 (32 random bytes recommended)`);
      return EXIT_USAGE;
    }
    if (invocation.auth !== undefined) verifier = await TokenVerifier.create(invocation.auth);
    config = await loadConfig(invocation.configFile);
    const opened = await openCliAudit('mcp', invocation.auditFile, config.audit);
    if (typeof opened === 'string') {
      say(opened);
      return EXIT_USAGE;
    }
    audit = opened;
    runner = await createRunner(config, { ...(audit.sink === undefined ? {} : { audit: audit.sink }), on_audit_file_error: audit.onError(config.audit ?? '') });
  } catch (error) {
    await audit?.finish();
    if (isTokenSetupError(error)) {
      say(`${error.code}: ${error.message}`);
      return EXIT_USAGE;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && invocation.stateSecretFile !== undefined && (error as NodeJS.ErrnoException).path === invocation.stateSecretFile) {
      say(`cannot read --state-secret-file ${JSON.stringify(invocation.stateSecretFile)} (${code})`);
      return EXIT_USAGE;
    }
    process.stderr.write(describeError(error).replace(/^basis-hooks:/, 'basis-hooks mcp:'));
    return EXIT_USAGE;
  }

  const common = {
    runner,
    workspace: invocation.workspace,
    agentId: invocation.agentId,
    expose: config.expose,
    unknownMethods: invocation.unknownMethods,
    upstreamTimeoutMs: invocation.upstreamTimeoutMs,
    maxMessageBytes: invocation.maxMessageBytes,
    upstreamEra: invocation.upstreamEra,
    stateSecret,
    log: say,
    ...(invocation.trail ? { onOutcome: (outcome: object, tool: string) => void process.stderr.write(`${JSON.stringify({ tool, ...outcome })}\n`) } : {}),
    ...(invocation.server === undefined ? {} : { server: invocation.server }),
    ...(invocation.upstream === undefined ? {} : { upstream: invocation.upstream }),
  };
  const cannotStart = async (error: unknown): Promise<number> => {
    await runner.close();
    await audit?.finish();
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found (ENOENT)' : code === 'EACCES' ? 'not executable (EACCES)' : code === 'EADDRINUSE' ? 'the address is in use (EADDRINUSE)' : String((error as Error).message);
    say(invocation.server !== undefined ? `cannot start the MCP server ${JSON.stringify(invocation.server.command)}: ${why}` : `cannot reach the MCP server at ${invocation.upstream?.url.href ?? '?'}: ${why}`);
    return EXIT_USAGE;
  };

  if (invocation.listen !== undefined) {
    let http: McpHttpGateway;
    try {
      http = await McpHttpGateway.start({
        ...common,
        host: invocation.listen.host,
        port: invocation.listen.port,
        allowedOrigins: invocation.allowedOrigins,
        maxSessions: invocation.maxSessions,
        maxInFlight: invocation.maxInFlight,
        sessionIdleMs: invocation.sessionIdleMs,
        ...(verifier === undefined || invocation.auth === undefined
          ? {}
          : { auth: { verifier, resource: invocation.auth.resource ?? resourceOf(invocation.auth.audience, invocation.listen), authorizationServers: invocation.auth.authorizationServers } }),
      });
    } catch (error) {
      return cannotStart(error);
    }
    say(`listening on ${http.url}`);
    const status = await new Promise<number>((resolve) => {
      for (const [signal, code] of Object.entries(SIGNAL_STATUS)) process.once(signal, () => resolve(code === 130 || code === 143 ? 0 : code));
    });
    await http.close();
    await runner.close();
    await audit.finish();
    return status;
  }

  let gateway: McpGateway;
  try {
    gateway = await McpGateway.start(common);
  } catch (error) {
    return cannotStart(error);
  }
  // The server leads its own process group, out of reach of the terminal's signals: stop it ourselves.
  const handlers = Object.entries(SIGNAL_STATUS).map(([signal, status]) => {
    const handler = (): void => void gateway.stop(status);
    process.once(signal, handler);
    return () => process.off(signal, handler);
  });
  try {
    const end = await gateway.ended;
    return end.status;
  } finally {
    for (const off of handlers) off();
    await runner.close();
    // Events lost on the way were reported as they were lost; the exit status stays the server's.
    await audit.finish();
    // The client may still hold our stdin open after the server went away; we are done reading it.
    process.stdin.destroy();
  }
}

/** The resource URL tokens are for: the audience when it is a URL, else the listen address. */
function resourceOf(audience: string, listen: { host: string; port: number }): string {
  if (/^https?:\/\//.test(audience)) return audience;
  return `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}/mcp`;
}
