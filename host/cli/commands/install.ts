import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { AGENT_NAMES, isAgentName, type AgentName } from '../../integrations/agents/names.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, parseFlags, usageError, type Command } from '../command.js';
import { write } from '../io.js';
import { describeError } from '../report.js';

const flags = {
  agent: { type: 'string' },
  config: { type: 'string', short: 'c' },
  scope: { type: 'string' },
  project: { type: 'string' },
  socket: { type: 'string' },
  command: { type: 'string' },
  'codex-bin': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'print-settings': { type: 'boolean' },
} as const;

const options = `Options:
      --agent <name>        ${AGENT_NAMES.join(' | ')} (required)
  -c, --config <file>       the policy (required): the fallback runs it when no server answers
      --scope <scope>       project (default: the project's own settings, paths a team can commit)
                            or user (the user's settings)
      --project <dir>       the project (default: the current directory)
      --socket <path>       the server the client talks to (default: as for "serve")
      --command <prefix>    how the fallback starts basis-hooks (default "npx --no-install basis-hooks")
      --codex-bin <file>    the codex binary to trust our hooks with (default: codex on PATH)
      --dry-run             say what would change, change nothing
      --print-settings      print just our settings, change nothing
  -h, --help                show this help`;

function usageFor(name: 'install' | 'uninstall'): string {
  return name === 'install'
    ? `Usage: basis-hooks install --agent <name> --config <hooks.json> [--scope project|user] [--dry-run | --print-settings] [--socket <path>]

Install the policy as that agent's command hook: write the client script (.basis-hooks/hook.sh: curl
to the resident server, the chain in-process when none answers, the agent's block when neither can),
and merge our hooks into the agent's settings — every other hook and setting kept, idempotent. It
also does what makes the agent actually load them: Codex's trust hashes and project trust, Gemini's
and Copilot's trusted folder. What the agent cannot enforce (a rewrite, a replaced result) is said.

${options}
`
    : `Usage: basis-hooks uninstall --agent <name> --config <hooks.json> [--scope project|user] [--dry-run]

Remove our hooks from that agent's settings, keeping everything else. The client script stays (other
agents may use it); trust entries stay.

${options}
`;
}

async function run(this: Command, mode: 'install' | 'uninstall', args: readonly string[]): Promise<number> {
  const parsed = parseFlags(this, args, flags);
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  if (v.agent === undefined || !isAgentName(v.agent)) return usageError(this, `--agent must be one of ${AGENT_NAMES.join(', ')}`);
  if (v.config === undefined) return usageError(this, '--config <hooks.json> is required');
  const scope = v.scope ?? 'project';
  if (scope !== 'project' && scope !== 'user') return usageError(this, `--scope must be project or user, got ${JSON.stringify(scope)}`);
  if (v['dry-run'] === true && v['print-settings'] === true) return usageError(this, '--dry-run and --print-settings: one or the other');
  let config;
  try {
    config = await loadConfig(v.config);
  } catch (error) {
    process.stderr.write(describeError(error));
    return EXIT_USAGE;
  }
  const { planInstall } = await import('../../integrations/agents/install/agents.js');
  const { applyChanges, InstallError } = await import('../../integrations/agents/install/files.js');
  const agent: AgentName = v.agent;
  const project = path.resolve(v.project ?? process.cwd());
  let plan;
  try {
    plan = await planInstall({
      agent,
      scope,
      project,
      home: os.homedir(),
      config,
      configFile: path.resolve(v.config),
      ...(v.socket === undefined ? {} : { socket: v.socket }),
      ...(v.command === undefined ? {} : { command: v.command }),
      env: process.env,
      uninstall: mode === 'uninstall',
    });
  } catch (error) {
    if (error instanceof InstallError) {
      process.stderr.write(`basis-hooks ${mode}: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  if (v['print-settings'] === true) {
    await write(process.stdout, `${JSON.stringify(plan.settings, null, 2)}\n`);
    return EXIT_OK;
  }
  const lines = plan.changes.map((c) => `${c.kind === 'write' ? 'write ' : 'remove'} ${c.file}\n`);
  if (v['dry-run'] === true) {
    await write(process.stdout, `${lines.join('')}${plan.notes.map((n) => `note: ${n}\n`).join('')}(dry run: nothing changed)\n`);
    return EXIT_OK;
  }
  await applyChanges(plan.changes);
  await write(process.stdout, `${lines.join('')}${plan.notes.map((n) => `note: ${n}\n`).join('')}`);
  if (agent === 'codex' && mode === 'install') {
    const { trustCodexHooks } = await import('../../integrations/agents/install/codex-trust.js');
    const codexHome = process.env['CODEX_HOME'] ?? path.join(os.homedir(), '.codex');
    try {
      const n = await trustCodexHooks({ codex: v['codex-bin'] ?? 'codex', codexHome, project, scope, env: process.env });
      await write(process.stdout, `trusted ${n} hook(s) in ${path.join(codexHome, 'config.toml')}\n`);
    } catch (error) {
      process.stderr.write(`basis-hooks install: the hooks are installed but Codex does not trust them, so it would skip them silently: ${error instanceof Error ? error.message : String(error)}\n  trust them in Codex (/hooks), or run install again with --codex-bin <codex>\n`);
      return EXIT_FAILED;
    }
  }
  return EXIT_OK;
}

/** `basis-hooks install --agent X`. */
export const installCommand: Command = {
  name: 'install',
  summary: 'install the policy into an agent CLI\'s settings (and make it load them)',
  usage: usageFor('install'),
  run(args) {
    return run.call(this, 'install', args);
  },
};

/** `basis-hooks uninstall --agent X`. */
export const uninstallCommand: Command = {
  name: 'uninstall',
  summary: 'remove our hooks from an agent CLI\'s settings (everything else kept)',
  usage: usageFor('uninstall'),
  run(args) {
    return run.call(this, 'uninstall', args);
  },
};
