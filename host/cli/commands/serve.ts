import { EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { OTLP_USAGE, otlpSetting } from '../otlp-option.js';
import { SERVER_FLAGS, SERVER_FLAGS_USAGE, serverOptions } from '../server-options.js';

const usage = `Usage: basis-hooks serve --config <hooks.json> [--socket <path>] [--listen <host:port> --token-file <file>] [--max-body-bytes <n>] [--otlp <url>]

The resident hook server: load the chain once and answer every agent's events — POST
/v1/hook/<agent> with the event — over a Unix socket (HTTP framing, mode 0600, in a 0700 directory),
and optionally over loopback TCP with a bearer token. Agents reach it through their command hook,
"basis-hooks install --agent <name>" (a curl client that falls back to the chain in-process, and
blocks when neither answers).

The config is watched: a change is loaded beside the running chain and swapped in atomically; a
config that does not load is refused with a log line and the old chain keeps serving (SIGHUP
reloads too). SIGTERM/SIGINT: stop accepting, answer the events in flight, exit 0.

Options:
  -c, --config <file>       the hooks.json to serve (required)
      --socket <path>       the Unix socket (default $XDG_RUNTIME_DIR/basis-hooks/hooks.sock, else
                            $TMPDIR/basis-hooks-<uid>/hooks.sock)
      --listen <host:port>  also serve loopback TCP (needs --token-file; Origin, Host and
                            Content-Type are checked as for "claude-code --http")
${SERVER_FLAGS_USAGE}
${OTLP_USAGE}
  -h, --help                show this help

Exit status: 0 after a clean stop; 2 for a usage error, a config that does not load at start, or a
socket or port that cannot be served.
`;

/** `basis-hooks serve`: the resident server for every agent. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'the resident hook server every agent\'s command hook talks to (Unix socket, reloads)',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, { config: { type: 'string', short: 'c' }, socket: { type: 'string' }, listen: { type: 'string' }, otlp: { type: 'string' }, ...SERVER_FLAGS });
    if (typeof parsed === 'number') return parsed;
    const values = parsed.values;
    if (values.config === undefined) return usageError(this, '--config <hooks.json> is required');
    const export_ = otlpSetting(values.otlp);
    if (typeof export_ === 'string') return usageError(this, export_);
    const server = serverOptions(values);
    if (typeof server === 'string') return usageError(this, server);
    let listen: { host: string; port: number } | undefined;
    if (values.listen !== undefined) {
      const m = /^(.+):(\d{1,5})$/.exec(values.listen);
      const port = Number(m?.[2]);
      if (m === null || port > 65_535) return usageError(this, `--listen must be host:port, got ${JSON.stringify(values.listen)}`);
      const host = (m[1] as string).replace(/^\[(.*)\]$/, '$1');
      if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) return usageError(this, `--listen serves loopback only (127.x.x.x, ::1, localhost), got ${JSON.stringify(host)}`);
      listen = { host, port };
      if (server.tokenFile === undefined) return usageError(this, '--listen needs --token-file: loopback TCP is reachable by every local process');
    }
    const { runServe } = await import('../agent-serve.js');
    const { defaultSocketPath } = await import('../../integrations/agents/server.js');
    try {
      return await runServe({ configFile: values.config, socket: values.socket ?? defaultSocketPath(), ...(listen === undefined ? {} : { listen }), ...(values.otlp === undefined ? {} : { otlp: values.otlp }), ...server });
    } catch (error) {
      process.stderr.write(`basis-hooks serve: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT_USAGE;
    }
  },
};
