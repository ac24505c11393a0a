import { AGENT_NAMES, isAgentName } from '../../integrations/agents/names.js';
import { parseFlags, usageError, type Command } from '../command.js';
import { expandProjectDirs } from '../project-dirs.js';

const usage = `Usage: basis-hooks hook --agent <name> [--socket <path>] [--config <hooks.json>] [--no-server] [--connect-timeout-ms <n>] [--timeout-ms <n>]

What an agent runs as its command hook: the agent's hook event on stdin goes to the resident server
("basis-hooks serve"), and its answer comes back on stdout/stderr and in the exit status, in that
agent's own dialect. If no server accepts within the connect timeout, the chain runs here when
--config is given; otherwise — and whenever anything else fails — the answer is the agent's own
block (its deny JSON, {"cancel": true} for Cline, exit 2 with a reason where that blocks), never
its fail-open path.

Agents: ${AGENT_NAMES.join(', ')}

Options:
      --agent <name>            the agent whose event this is (required)
      --socket <path>           the server's socket (default as for "serve")
  -c, --config <file>           run the chain in-process when no server answers ($CLAUDE_PROJECT_DIR,
                                $GEMINI_PROJECT_DIR… in it are expanded)
      --no-server               do not try the server (with --config)
      --connect-timeout-ms <n>  how long to wait for the server to accept (default 500)
      --timeout-ms <n>          how long to wait for its answer (default 60000), then block
  -h, --help                    show this help
`;

function ms(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  return /^\d+$/.test(value) && n > 0 && n <= 600_000 ? n : undefined;
}

/** `basis-hooks hook --agent X`: the fail-closed command client. */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'an agent\'s command hook: forward its event to the server, answer in its dialect (fail closed)',
  usage,
  async run(args) {
    const parsed = parseFlags(this, args, {
      agent: { type: 'string' },
      socket: { type: 'string' },
      config: { type: 'string', short: 'c' },
      'no-server': { type: 'boolean' },
      'connect-timeout-ms': { type: 'string' },
      'timeout-ms': { type: 'string' },
    });
    if (typeof parsed === 'number') return parsed;
    const values = parsed.values;
    if (values.agent === undefined || !isAgentName(values.agent)) return usageError(this, `--agent must be one of ${AGENT_NAMES.join(', ')}`);
    const connect = ms(values['connect-timeout-ms'], 500);
    const timeout = ms(values['timeout-ms'], 60_000);
    if (connect === undefined || timeout === undefined) return usageError(this, '--connect-timeout-ms and --timeout-ms take a whole number of ms from 1 to 600000');
    if (values['no-server'] === true && values.config === undefined) return usageError(this, '--no-server needs --config');
    const { runHookClient } = await import('../agent-hook.js');
    const { defaultSocketPath } = await import('../../integrations/agents/socket-path.js');
    let configFile = values.config;
    if (configFile !== undefined) {
      const expanded = expandProjectDirs(configFile);
      if ('unset' in expanded) {
        // What the agent runs must still answer in its own blocking form, not with a usage error.
        const { agentDialect } = await import('../../integrations/agents/registry.js');
        const reply = agentDialect(values.agent).block(`--config ${configFile} names $${expanded.unset}, which is not set (the agent sets it for its hooks)`);
        if (reply.stdout !== '') process.stdout.write(reply.stdout);
        if (reply.stderr !== '') process.stderr.write(reply.stderr);
        return reply.exit;
      }
      configFile = expanded.path;
    }
    return runHookClient({
      agent: values.agent,
      socket: values['no-server'] === true ? undefined : (values.socket ?? defaultSocketPath()),
      ...(configFile === undefined ? {} : { configFile }),
      connectTimeoutMs: connect,
      timeoutMs: timeout,
    });
  },
};
