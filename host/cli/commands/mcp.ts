import { importOptional, installCommand, isPackageMissingError } from '../../errors/package-missing-error.js';
import { EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';

const usage = `Usage: basis-hooks mcp --config <hooks.json> [--workspace <dir>] [--agent-id <id>] [--trail]
                       [--audit <file>] [--unknown-methods refuse|forward] [--upstream-timeout <ms>]
                       [--max-message-bytes <n>] -- <server command> [args...]

A stdio MCP gateway. Starts the MCP server given after "--" and speaks MCP to the client on stdin and
stdout; every tools/call runs through the hooks (pre_tool_use before the server sees it,
post_tool_use on the result before the client does). Everything else passes through unchanged.

Options:
  -c, --config <file>     the hooks.json to load (required)
      --workspace <dir>   the "workspace" of every call (default: the current directory)
      --agent-id <id>     the "agent_id" of every call (default: the client's name from initialize)
      --trail             write every chain outcome (with its trail) as a JSON line to stderr
      --audit <file>      also append the audit stream to this file (JSON lines; the config's
                          "audit" file, if any, is written as well)
      --unknown-methods <p>   what to do with a method the gateway does not know: refuse (default:
                          a request gets -32601, a notification is dropped) or forward (unhooked)
      --upstream-timeout <ms> how long a request may wait for the server's answer; progress
                          notifications restart it; 0: forever (default 600000)
      --max-message-bytes <n> largest message read from either side (default 33554432)
  -h, --help              show this help

A denied call, or a hook that failed closed, is answered with an isError result giving the reason.
stdout carries nothing but the protocol; the server's stderr and the gateway's messages go to stderr.

Exit status: the server's (128 + signal number when a signal ended it); 0 when the client closed
the connection; 2 for a usage error, an invalid config, a hook that cannot be loaded, an audit file
that cannot be opened, a server that cannot be started, or the MCP SDK not installed (nothing is
started then); 130/143 when interrupted. An audit file that loses events later is reported on stderr.

The gateway needs the MCP SDK, an optional peer dependency of basis-hooks:
  ${installCommand('@modelcontextprotocol/sdk')}

Example (an MCP client's config):
  "command": "npx",
  "args": ["basis-hooks", "mcp", "--config", "/path/hooks.json", "--",
           "npx", "@modelcontextprotocol/server-filesystem", "/path/project"]
`;

/** `basis-hooks mcp`: an MCP gateway running the chain on every tools/call. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'run an MCP server behind a gateway that hooks every tools/call',
  usage,
  async run(args) {
    const split = args.indexOf('--');
    const own = split === -1 ? args : args.slice(0, split);
    const serverArgv = split === -1 ? [] : args.slice(split + 1);
    const parsed = parseFlags(this, own, {
      config: { type: 'string', short: 'c' },
      workspace: { type: 'string' },
      'agent-id': { type: 'string' },
      trail: { type: 'boolean' },
      audit: { type: 'string' },
      'unknown-methods': { type: 'string' },
      'upstream-timeout': { type: 'string' },
      'max-message-bytes': { type: 'string' },
    });
    if (typeof parsed === 'number') return parsed;
    const { config: configFile, workspace, 'agent-id': agentId, trail, audit } = parsed.values;
    if (configFile === undefined) return usageError(this, '--config <hooks.json> is required');
    const [serverCommand, ...serverArgs] = serverArgv;
    if (serverCommand === undefined || serverCommand === '') {
      return usageError(this, 'the MCP server command is required after "--" (e.g. -- npx @modelcontextprotocol/server-filesystem /data)');
    }
    if (agentId === '') return usageError(this, '--agent-id must not be empty');
    const unknownMethods = parsed.values['unknown-methods'];
    if (unknownMethods !== undefined && unknownMethods !== 'refuse' && unknownMethods !== 'forward') {
      return usageError(this, `--unknown-methods must be "refuse" or "forward", not ${JSON.stringify(unknownMethods)}`);
    }
    const upstreamTimeout = wholeNumber(parsed.values['upstream-timeout']);
    if (upstreamTimeout === null) return usageError(this, `--upstream-timeout must be a whole number of milliseconds (0: forever), not ${JSON.stringify(parsed.values['upstream-timeout'])}`);
    const maxMessageBytes = wholeNumber(parsed.values['max-message-bytes']);
    if (maxMessageBytes === null || maxMessageBytes === 0) return usageError(this, `--max-message-bytes must be a positive whole number of bytes, not ${JSON.stringify(parsed.values['max-message-bytes'])}`);
    // Imported here, not at the top: the MCP SDK (an optional peer) is not something other commands should load.
    let gateway: typeof import('../mcp-gateway.js');
    try {
      gateway = await importOptional('@modelcontextprotocol/sdk', () => import('../mcp-gateway.js'));
    } catch (error) {
      if (!isPackageMissingError(error)) throw error;
      process.stderr.write(`basis-hooks mcp: ${error.code}: ${error.message}\n`);
      return EXIT_USAGE;
    }
    const { runGateway } = gateway;
    return runGateway({
      configFile,
      workspace: workspace ?? process.cwd(),
      ...(agentId === undefined ? {} : { agentId }),
      trail: trail === true,
      ...(audit === undefined ? {} : { auditFile: audit }),
      server: { command: serverCommand, args: serverArgs },
      ...(unknownMethods === undefined ? {} : { unknownMethods }),
      ...(upstreamTimeout === undefined ? {} : { upstreamTimeoutMs: upstreamTimeout }),
      ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
    });
  },
};



/** A flag's whole number: `undefined` when absent, `null` when not a whole number ≥ 0. */
function wholeNumber(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}
