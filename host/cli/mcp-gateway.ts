import path from 'node:path';
import { isDirectory } from '../transports/subprocess/check.js';
import { createRunner } from '../config/create-runner.js';
import { loadConfig } from '../config/load.js';
import { McpGateway } from '../integrations/mcp/index.js';
import type { ServerCommand, UnknownMethods } from '../integrations/mcp/index.js';
import type { HookRunner } from '../runner/runner.js';
import { openCliAudit, type CliAudit } from './audit-option.js';
import { EXIT_USAGE } from './command.js';
import { describeError } from './report.js';

/** What `basis-hooks mcp` was asked to do. */
export interface GatewayInvocation {
  readonly configFile: string;
  readonly workspace: string;
  readonly agentId?: string;
  readonly trail: boolean;
  /** `--audit FILE`: also append the audit stream there. */
  readonly auditFile?: string;
  readonly server: ServerCommand;
  readonly unknownMethods?: UnknownMethods;
  readonly upstreamTimeoutMs?: number;
  readonly maxMessageBytes?: number;
}

const SIGNAL_STATUS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * The body of `basis-hooks mcp`: load the hooks (components included) before anything starts — a
 * gate that is not armed must not pass traffic — then start the server and relay until one side ends.
 */
export async function runGateway(request: GatewayInvocation): Promise<number> {
  const say = (line: string): void => void process.stderr.write(`basis-hooks mcp: ${line}\n`);
  // Hooks run with the call's workspace as their cwd: it must not depend on ours.
  const invocation = { ...request, workspace: path.resolve(request.workspace) };
  if (!(await isDirectory(invocation.workspace))) {
    say(`--workspace ${JSON.stringify(invocation.workspace)} is not a directory`);
    return EXIT_USAGE;
  }
  let runner: HookRunner;
  let audit: CliAudit | undefined;
  try {
    const config = await loadConfig(invocation.configFile);
    const opened = await openCliAudit('mcp', invocation.auditFile, config.audit);
    if (typeof opened === 'string') {
      say(opened);
      return EXIT_USAGE;
    }
    audit = opened;
    runner = await createRunner(config, { ...(audit.sink === undefined ? {} : { audit: audit.sink }), on_audit_file_error: audit.onError(config.audit ?? '') });
  } catch (error) {
    await audit?.finish();
    process.stderr.write(describeError(error).replace(/^basis-hooks:/, 'basis-hooks mcp:'));
    return EXIT_USAGE;
  }

  let gateway: McpGateway;
  try {
    gateway = await McpGateway.start({
      runner,
      server: invocation.server,
      workspace: invocation.workspace,
      ...(invocation.agentId === undefined ? {} : { agentId: invocation.agentId }),
      ...(invocation.unknownMethods === undefined ? {} : { unknownMethods: invocation.unknownMethods }),
      ...(invocation.upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs: invocation.upstreamTimeoutMs }),
      ...(invocation.maxMessageBytes === undefined ? {} : { maxMessageBytes: invocation.maxMessageBytes }),
      log: say,
      ...(invocation.trail ? { onOutcome: (outcome, tool) => void process.stderr.write(`${JSON.stringify({ tool, ...outcome })}\n`) } : {}),
    });
  } catch (error) {
    await runner.close();
    await audit.finish();
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found (ENOENT)' : code === 'EACCES' ? 'not executable (EACCES)' : String((error as Error).message);
    say(`cannot start the MCP server ${JSON.stringify(invocation.server.command)}: ${why}`);
    return EXIT_USAGE;
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
