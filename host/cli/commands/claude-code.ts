import { parseFlags, usageError, type Command } from '../command.js';
import { otlpSetting } from '../otlp-option.js';
import { SERVER_FLAGS, SERVER_FLAGS_USAGE, serverOptions } from '../server-options.js';
import { expandProjectDirs } from '../project-dirs.js';

const usage = `Usage: basis-hooks claude-code --config <hooks.json> [--approve-rewrites] [--audit <file>] [--otlp <url>]
       basis-hooks claude-code --config <hooks.json> --http --port <n> [--host <addr>] [--token-file <file>] [--max-body-bytes <n>] [--approve-rewrites] [--audit <file>] [--otlp <url>]
       basis-hooks claude-code --config <hooks.json> --print-settings [--http --port <n> [--host <addr>] [--token-file <file>]] [--command <prefix>] [--audit <file>] [--otlp <url>]

Run the basis chain as a Claude Code hook: one chain, serial, fail closed, sandboxed components.

Reads one Claude Code hook event (PreToolUse, PostToolUse or PostToolUseFailure) on stdin, runs the
hooks and answers as Claude Code expects: nothing (no objection), or JSON with permissionDecision
"deny", updatedInput (permissionDecision "ask"), decision "block" or updatedToolOutput. It never fails
open: a bad config, a hook that cannot load or an event it cannot read exits 2 (block) with a
one-line reason on stderr.

Options:
  -c, --config <file>     the hooks.json to load (required; $CLAUDE_PROJECT_DIR in it is expanded)
      --approve-rewrites  answer a rewritten call with permissionDecision "allow" (auto-approve)
                          instead of "ask" (the user confirms the rewrite)
      --http              serve Claude Code's "http" hooks instead: POST an event, get the answer.
                          Claude Code lets a call PROCEED when an http hook's server is down (a
                          refused connection is a non-blocking error): the settings printed for it
                          pair each http hook with a fail-closed guard command (a health check that
                          denies when the server does not answer). The command hook (no --http) is
                          fail closed by itself.
      --port <n>          the port to listen on (with --http; 0 picks a free one)
      --host <addr>       the address to listen on (default 127.0.0.1)
${SERVER_FLAGS_USAGE}
                          With --print-settings --http: the token goes into the http hooks'
                          "headers" (keep those settings in .claude/settings.local.json, not committed)
      --audit <file>      also append the audit stream to this file (JSON lines; the config's
                          "audit" file, if any, is written as well); with --print-settings, the
                          printed command passes it on
      --otlp <url>        export the chain's traces and metrics over OTLP/HTTP to this collector
                          (e.g. http://127.0.0.1:4318). With --http, the standard
                          OTEL_EXPORTER_OTLP_ENDPOINT variables turn export on too; a command hook
                          exports only with --otlp (each event is a process: loading an exporter
                          costs it), and continues Claude Code's trace from TRACEPARENT. With
                          --print-settings, the printed command passes it on
      --print-settings    print the .claude/settings.json "hooks" block that wires this config in
      --command <prefix>  with --print-settings: how Claude Code should start basis-hooks
                          (default: this node and this CLI, by absolute path)
  -h, --help              show this help

Exit status: 0 with the answer on stdout; 2 when the call must be blocked and the chain could not
say why (the reason on stderr).
`;

/** Claude Code's "block" exit status: the one failure it does not treat as "proceed". */
const EXIT_BLOCK = 2;

/** `basis-hooks claude-code`: the chain as a Claude Code command or HTTP hook. */
export const claudeCodeCommand: Command = {
  name: 'claude-code',
  summary: 'run the hooks as a Claude Code hook (command or HTTP), or print its settings',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, {
      config: { type: 'string', short: 'c' },
      'approve-rewrites': { type: 'boolean' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      'print-settings': { type: 'boolean' },
      command: { type: 'string' },
      audit: { type: 'string' },
      otlp: { type: 'string' },
      ...SERVER_FLAGS,
    });
    if (typeof parsed === 'number') return parsed;
    const values = parsed.values;
    if (values.config === undefined) return usageError(this, '--config <hooks.json> is required');
    let port: number | undefined;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!/^\d+$/.test(values.port) || port > 65_535) return usageError(this, `--port must be a port number (0-65535), got ${JSON.stringify(values.port)}`);
    }
    if (values.http === true && port === undefined) return usageError(this, '--http needs --port <n>');
    if (values.http === true && values['print-settings'] === true && port === 0) return usageError(this, '--print-settings needs the port Claude Code will reach (not 0)');
    if (values.http !== true && (port !== undefined || values.host !== undefined)) return usageError(this, '--port and --host go with --http');
    if (values.command !== undefined && values['print-settings'] !== true) return usageError(this, '--command goes with --print-settings');
    if (values.command !== undefined && values.http === true) return usageError(this, '--command is for command hooks; an http hook is reached by its URL');
    const server = serverOptions(values);
    if (typeof server === 'string') return usageError(this, server);
    if (values.http !== true && (server.tokenFile !== undefined || server.maxBodyBytes !== undefined)) return usageError(this, '--token-file and --max-body-bytes go with --http');
    if (values['print-settings'] === true && server.maxBodyBytes !== undefined) return usageError(this, '--max-body-bytes is for the server, not --print-settings');
    const approveRewrites = values['approve-rewrites'] === true;
    const audit = values.audit === undefined ? {} : { auditFile: values.audit };
    const otlp = values.otlp === undefined ? {} : { otlp: values.otlp };
    const setting = otlpSetting(values.otlp);
    if (typeof setting === 'string' && (values.otlp !== undefined || values.http === true)) return usageError(this, setting);
    if (values['print-settings'] !== true && values.http !== true) {
      // Claude Code lets the call proceed on any exit status but 2: nothing may escape as a crash.
      // $CLAUDE_PROJECT_DIR in --config: expanded here too (single quotes, or exec-form args, keep it from the shell).
      const expanded = expandProjectDirs(values.config);
      if ('unset' in expanded) {
        process.stderr.write(`basis-hooks claude-code: --config ${values.config} names $${expanded.unset}, which is not set (Claude Code sets CLAUDE_PROJECT_DIR for its hooks)\n`);
        return EXIT_BLOCK;
      }
      try {
        const { runOnce } = await import('../claude-code-bridge.js');
        return await runOnce({ configFile: expanded.path, approveRewrites, ...audit, ...otlp });
      } catch (error) {
        process.stderr.write(`basis-hooks claude-code: internal error: ${error instanceof Error ? error.message : String(error)}\n`.replace(/\n(?!$)/g, ' '));
        return EXIT_BLOCK;
      }
    }
    const bridge = await import('../claude-code-bridge.js');
    if (values['print-settings'] === true) {
      return bridge.printSettings({
        configFile: values.config,
        ...(values.http === true && port !== undefined ? { http: { port, host: values.host ?? bridge.DEFAULT_HOST, ...server } } : {}),
        ...(values.command === undefined ? {} : { command: values.command }),
        approveRewrites,
        ...audit,
        ...otlp,
      });
    }
    return bridge.serveHttp({ configFile: values.config, port: port ?? 0, host: values.host ?? bridge.DEFAULT_HOST, approveRewrites, ...audit, ...server, ...otlp });
  },
};
