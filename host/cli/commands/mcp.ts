import { importOptional, isPackageMissingError } from '../../errors/package-missing-error.js';
import { EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { parseMcpFlags } from '../mcp-flags.js';
import { OTLP_USAGE, otlpSetting } from '../otlp-option.js';

const usage = `Usage: basis-hooks mcp --config <hooks.json> [options] -- <server command> [args...]
       basis-hooks mcp --config <hooks.json> [options] --upstream <url>

An MCP gateway: every tools/call between an MCP client and an MCP server runs through the hooks
(pre_tool_use before the server sees it, post_tool_use on the result before the client does).
Speaks MCP 2025-11-25 (sessions) and 2026-07-28 (stateless) to clients and servers of either era.

The client side (default: stdio, one client on stdin/stdout):
      --listen [host:]port    serve MCP over Streamable HTTP at http://host:port/mcp instead, to many
                              clients (host default 127.0.0.1)
      --allow-origin <origin> let browser requests from this origin in (repeatable; default none:
                              any request with an Origin header gets 403)
      --jwks <file|url>       require a bearer token (a JWT) checked against this JWKS; without one a
                              request gets 401 with the resource metadata (needs --audience)
      --audience <aud>        the audience tokens must be issued for
      --issuer <iss>          the issuer tokens must come from
      --agent-claim <claim>   the claim naming the agent (default sub)
      --workspace-claim <c>   the claim naming the workspace (default: none, --workspace)
      --authorization-server <url>  where clients get tokens (resource metadata; repeatable)
      --resource <url>        the gateway's resource URL in the metadata (default: --audience when
                              it is a URL, else the listen URL)
      --max-sessions <n>      most 2025-11-25 sessions at once (default 1000)
      --max-in-flight <n>     most requests handled at once; more get 503 (default 4096)
      --session-idle-timeout <ms>  end a session idle this long (default 1800000)
      --state-secret-file <f> the key sealing 2026-07-28 task handles; give every replica the same
                              file (default: a random key per process)

The server side (a command after "--", spoken to over stdio; or):
      --upstream <url>        a Streamable HTTP MCP server
      --upstream-header 'Name: value'  sent to it on every request (repeatable); \${VAR} in the
                              value reads the environment variable VAR. A client's token is never
                              forwarded: these are the gateway's own credentials
      --upstream-era <era>    legacy or modern: skip the server/discover probe (default: probe)
      --upstream-timeout <ms> how long a request may wait for the server's answer; progress
                              notifications restart it; 0: forever (default 600000)

Both sides:
  -c, --config <file>         the hooks.json to load (required); its "expose" says which tools each
                              agent may list and call
      --workspace <dir>       the "workspace" of a call no token names one for (default: cwd)
      --agent-id <id>         the "agent_id" of a call nothing else names (a token's claim, the
                              request's _meta client info, the session's initialize come first)
      --unknown-methods <p>   a method the gateway does not know: refuse (default: a request gets
                              -32601, a notification is dropped) or forward (unhooked)
      --max-message-bytes <n> largest message read from either side (default 33554432)
      --trail                 write every chain outcome (with its trail) as a JSON line to stderr
      --audit <file>          also append the audit stream to this file (JSON lines)
${OTLP_USAGE}
  -h, --help                  show this help

A denied call, or a hook that failed closed, is answered with an isError result giving the reason.
On stdio, stdout carries nothing but the protocol; the server's stderr and the gateway's messages go
to stderr. With export on, a tools/call continues the trace its params._meta names (traceparent)
and the request forwarded to the server names the gateway's span. See docs/mcp-gateway.md.

Exit status: a spawned server's (128 + signal number when a signal ended it); 0 when the client
closed the connection or the HTTP gateway was stopped by SIGINT/SIGTERM after a clean shutdown; 2
for a usage error, an invalid config, a hook that cannot be loaded, an audit file that cannot be
opened, or a server that cannot be started or reached (nothing is started then); 130/143 when
interrupted (stdio).

Example (an MCP client's config):
  "command": "npx",
  "args": ["basis-hooks", "mcp", "--config", "/path/hooks.json", "--",
           "npx", "@modelcontextprotocol/server-filesystem", "/path/project"]
`;

/** `basis-hooks mcp`: an MCP gateway running the chain on every tools/call. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'put an MCP gateway that hooks every tools/call in front of an MCP server (stdio or HTTP)',
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
      otlp: { type: 'string' },
      'unknown-methods': { type: 'string' },
      'upstream-timeout': { type: 'string' },
      'max-message-bytes': { type: 'string' },
      listen: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      jwks: { type: 'string' },
      audience: { type: 'string' },
      issuer: { type: 'string' },
      'agent-claim': { type: 'string' },
      'workspace-claim': { type: 'string' },
      'authorization-server': { type: 'string', multiple: true },
      resource: { type: 'string' },
      'max-sessions': { type: 'string' },
      'max-in-flight': { type: 'string' },
      'session-idle-timeout': { type: 'string' },
      'state-secret-file': { type: 'string' },
      upstream: { type: 'string' },
      'upstream-header': { type: 'string', multiple: true },
      'upstream-era': { type: 'string' },
    });
    if (typeof parsed === 'number') return parsed;
    const invocation = parseMcpFlags(parsed.values, serverArgv, process.env, process.cwd());
    if (typeof invocation === 'string') return usageError(this, invocation);
    const exporting = otlpSetting(parsed.values.otlp);
    if (typeof exporting === 'string') return usageError(this, exporting);
    // Imported here, not at the top: the MCP SDK (an optional peer) is not something other commands should load.
    let gateway: typeof import('../mcp-gateway.js');
    try {
      gateway = await importOptional('@modelcontextprotocol/sdk', () => import('../mcp-gateway.js'));
    } catch (error) {
      if (!isPackageMissingError(error)) throw error;
      process.stderr.write(`basis-hooks mcp: ${error.code}: ${error.message}\n`);
      return EXIT_USAGE;
    }
    return gateway.runGateway(invocation);
  },
};
