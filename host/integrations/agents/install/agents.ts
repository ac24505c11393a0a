import path from 'node:path';
import type { HookConfig, HooksConfig } from '../../../config/schema.js';
import { matcherFor, timeoutFor } from '../../claude-code/settings.js';
import type { AgentName } from '../names.js';
import { blockStatements, clientScript, CLIENT_SCRIPT, MISSING_SCRIPT_REASON, OURS, settingsCommand } from './script.js';
import { jsonText, mergeEventGroups, readJsonObject, type FileChange, InstallError } from './files.js';
import { readFile } from 'node:fs/promises';

/** The description of the Kiro agent config install writes (how uninstall recognises an untouched one). */
const KIRO_AGENT_DESCRIPTION = 'The default tools, guarded by basis-hooks';

/** Options of {@link planInstall}. */
export interface InstallOptions {
  readonly agent: AgentName;
  /** `project` (default): the project's own settings, committable; `user`: the user's. */
  readonly scope: 'project' | 'user';
  /** The project directory (absolute). */
  readonly project: string;
  /** The user's home (absolute). */
  readonly home: string;
  readonly config: HooksConfig;
  /** The config file (absolute). */
  readonly configFile: string;
  readonly socket?: string;
  /** How the fallback starts basis-hooks (default `npx --no-install basis-hooks`). */
  readonly command?: string;
  /** The environment the agent's own variables are read from (CODEX_HOME, COPILOT_HOME). */
  readonly env: NodeJS.ProcessEnv;
  /** Remove ours instead (everything else in the files is kept). */
  readonly uninstall?: boolean;
}

/** What an install (or uninstall) will do. */
export interface InstallPlan {
  readonly changes: readonly FileChange[];
  /** Just our part of the agent's settings (what `--print-settings` shows). */
  readonly settings: unknown;
  /** What the user must know: what the agent cannot enforce, a manual step left. */
  readonly notes: readonly string[];
}

const HOOKS_OF = (config: HooksConfig, event: 'pre_tool_use' | 'post_tool_use'): readonly HookConfig[] => config.hooks.filter((h) => h.event === event);

/** The tool matcher of an event's hooks in the agent's vocabulary (`*` for canonical names or none). */
function matcher(config: HooksConfig, event: 'pre_tool_use' | 'post_tool_use'): string | undefined {
  const hooks = HOOKS_OF(config, event);
  if (hooks.length === 0) return undefined;
  if (config.tool_names === 'canonical') return '*';
  return matcherFor(hooks);
}

/** Seconds the client may wait for the server (every hook at its deadline, plus start-up). */
function clientSeconds(config: HooksConfig): number {
  return Math.max(timeoutFor(HOOKS_OF(config, 'pre_tool_use')), timeoutFor(HOOKS_OF(config, 'post_tool_use')));
}

/** The agent's own timeout for our hook: the client's wait plus a cold in-process fallback. */
function agentSeconds(config: HooksConfig): number {
  return clientSeconds(config) + 30;
}

function base(options: InstallOptions): string {
  return options.scope === 'user' ? options.home : options.project;
}

/** The client script, written beside the settings (committable). */
function scriptChange(options: InstallOptions): FileChange {
  const dir = path.join(base(options), path.dirname(CLIENT_SCRIPT));
  const config = options.scope === 'user' ? options.configFile : path.relative(dir, options.configFile);
  return {
    kind: 'write',
    file: path.join(base(options), CLIENT_SCRIPT),
    text: clientScript({
      config,
      ...(options.socket === undefined ? {} : { socket: options.socket }),
      ...(options.command === undefined ? {} : { command: options.command }),
      timeoutSeconds: clientSeconds(options.config),
    }),
    mode: 0o755,
  };
}

/**
 * The hook command for an agent: the script by the agent's project variable where it has one, else
 * found from the hook's working directory upwards (Codex and Copilot run hooks in the session's
 * directory, which may be below the project root); for the agents checked against their docs only, the
 * plain `sh .basis-hooks/hook.sh <agent>` (their command field may not go through a shell). Where the
 * script is not found, the agent's own block — never the shell's "cannot open".
 */
function hookCommand(options: InstallOptions, projectVar: string | undefined): string {
  if (options.agent === 'cursor' || options.agent === 'windsurf' || options.agent === 'kiro') {
    return options.scope === 'user' ? `sh "$HOME/${CLIENT_SCRIPT}" ${options.agent}` : settingsCommand(options.agent, { kind: 'plain' });
  }
  if (options.scope === 'user') return settingsCommand(options.agent, { kind: 'home' });
  return settingsCommand(options.agent, projectVar === undefined ? { kind: 'walk' } : { kind: 'var', name: projectVar });
}

/** Claude-shaped settings (`hooks.<Event>[] = {matcher, hooks: [{type, command, timeout}]}`): Claude Code, Qwen Code, Codex. */
async function claudeShaped(
  options: InstallOptions,
  file: string,
  events: { readonly pre: readonly string[]; readonly post: readonly string[] },
  projectVar: string | undefined,
  unit: 's' | 'ms',
  wrapper: 'settings' | 'hooks-file',
): Promise<{ change: FileChange; ours: Record<string, unknown[]> }> {
  const command = hookCommand(options, projectVar);
  const timeout = unit === 'ms' ? agentSeconds(options.config) * 1000 : agentSeconds(options.config);
  const ours: Record<string, unknown[]> = {};
  for (const [event, names] of [['pre_tool_use', events.pre], ['post_tool_use', events.post]] as const) {
    const m = matcher(options.config, event);
    if (m === undefined) continue;
    // Codex reads a matcher as a regex ("*" is not one): no matcher is its "every tool".
    const group = options.agent === 'codex' && m === '*' ? {} : { matcher: m };
    for (const name of names) ours[name] = [{ ...group, hooks: [{ type: 'command', command, timeout }] }];
  }
  const settings = await readJsonObject(file);
  const hooks = typeof settings['hooks'] === 'object' && settings['hooks'] !== null ? (settings['hooks'] as Record<string, unknown>) : {};
  const merged = mergeEventGroups(hooks, ours, OURS, 'hooks');
  const next = wrapper === 'hooks-file' ? { ...settings, hooks: merged } : { ...settings, hooks: merged };
  return { change: { kind: 'write', file, text: jsonText(next) }, ours };
}

/** Plan installing our hooks into one agent's settings. */
export async function planInstall(input: InstallOptions): Promise<InstallPlan> {
  // Uninstalling is installing nothing: every entry of ours is dropped, nothing is added.
  const options: InstallOptions = input.uninstall === true ? { ...input, config: { ...input.config, hooks: [] } } : input;
  const root = base(options);
  const notes: string[] = [];
  const changes: FileChange[] = input.uninstall === true ? [] : [scriptChange(options)];
  const env = options.env;
  switch (options.agent) {
    case 'claude-code': {
      const file = path.join(root, '.claude', 'settings.json');
      const { change, ours } = await claudeShaped(options, file, { pre: ['PreToolUse'], post: ['PostToolUse', 'PostToolUseFailure'] }, options.scope === 'project' ? 'CLAUDE_PROJECT_DIR' : undefined, 's', 'settings');
      changes.push(change);
      return { changes, settings: { hooks: ours }, notes };
    }
    case 'qwen': {
      const file = path.join(root, '.qwen', 'settings.json');
      const { change, ours } = await claudeShaped(options, file, { pre: ['PreToolUse'], post: ['PostToolUse', 'PostToolUseFailure'] }, options.scope === 'project' ? 'QWEN_PROJECT_DIR' : undefined, 'ms', 'settings');
      changes.push(change);
      notes.push('Qwen Code cannot apply a rewrite (a modify is answered with a deny) nor replace a result (the original output still reaches the model beside the reason); its hook timeout is in milliseconds.');
      return { changes, settings: { hooks: ours }, notes };
    }
    case 'codex': {
      const codexHome = env['CODEX_HOME'] ?? path.join(options.home, '.codex');
      const file = options.scope === 'user' ? path.join(codexHome, 'hooks.json') : path.join(root, '.codex', 'hooks.json');
      const { change, ours } = await claudeShaped(options, file, { pre: ['PreToolUse'], post: ['PostToolUse'] }, undefined, 's', 'hooks-file');
      changes.push(change);
      notes.push(`Codex skips hooks it has not trusted, silently: install trusts ours by hash in ${path.join(codexHome, 'config.toml')} (from \`codex app-server\`'s hooks/list)${options.scope === 'project' ? ', and trusts the project layer' : ''}.`);
      return { changes, settings: { hooks: ours }, notes };
    }
    case 'gemini': {
      const file = path.join(root, '.gemini', 'settings.json');
      const command = hookCommand(options, options.scope === 'project' ? 'GEMINI_PROJECT_DIR' : undefined);
      const timeout = agentSeconds(options.config) * 1000;
      const ours: Record<string, unknown[]> = {};
      const pre = matcher(options.config, 'pre_tool_use');
      const post = matcher(options.config, 'post_tool_use');
      const entry = (m: string): unknown => ({ matcher: m === '*' ? '.*' : m, hooks: [{ type: 'command', name: 'basis-hooks', command, timeout }] });
      if (pre !== undefined) ours['BeforeTool'] = [entry(pre)];
      if (post !== undefined) ours['AfterTool'] = [entry(post)];
      const settings = await readJsonObject(file);
      const hooks = typeof settings['hooks'] === 'object' && settings['hooks'] !== null ? (settings['hooks'] as Record<string, unknown>) : {};
      changes.push({ kind: 'write', file, text: jsonText({ ...settings, hooks: mergeEventGroups(hooks, ours, OURS, 'hooks') }) });
      if (options.scope === 'project' && input.uninstall !== true) {
        const trusted = path.join(options.home, '.gemini', 'trustedFolders.json');
        const folders = await readJsonObject(trusted);
        if (folders[options.project] !== 'TRUST_FOLDER') changes.push({ kind: 'write', file: trusted, text: jsonText({ ...folders, [options.project]: 'TRUST_FOLDER' }) });
        notes.push(`Gemini CLI loads a project's hooks only in a trusted folder: ${options.project} is trusted in ${trusted}.`);
      }
      notes.push('Gemini CLI merges a rewrite over the original arguments (a rewrite that drops an argument is denied instead), and shows a post-call deny or replacement to the model as an error.');
      return { changes, settings: { hooks: ours }, notes };
    }
    case 'copilot': {
      const file = path.join(root, '.github', 'hooks', 'basis-hooks.json');
      const command = hookCommand(options, undefined);
      const timeoutSec = agentSeconds(options.config);
      const ours: Record<string, unknown[]> = {};
      if (HOOKS_OF(options.config, 'pre_tool_use').length > 0) ours['preToolUse'] = [{ type: 'command', bash: command, timeoutSec }];
      if (HOOKS_OF(options.config, 'post_tool_use').length > 0) ours['postToolUse'] = [{ type: 'command', bash: command, timeoutSec }];
      changes.push(input.uninstall === true ? { kind: 'remove', file } : { kind: 'write', file, text: jsonText({ version: 1, hooks: ours }) });
      if (options.scope === 'project' && input.uninstall !== true) {
        const copilotHome = env['COPILOT_HOME'] ?? path.join(options.home, '.copilot');
        const configFile = path.join(copilotHome, 'config.json');
        const cfg = await readJsonObject(configFile);
        const list = Array.isArray(cfg['trusted_folders']) ? (cfg['trusted_folders'] as unknown[]) : [];
        if (!list.includes(options.project)) changes.push({ kind: 'write', file: configFile, text: jsonText({ ...cfg, trusted_folders: [...list, options.project] }) });
        notes.push(`Copilot CLI loads repository hooks only in a trusted folder: ${options.project} is added to trusted_folders in ${configFile}.`);
      }
      return { changes, settings: { version: 1, hooks: ours }, notes };
    }
    case 'cline': {
      const dir = options.scope === 'user' ? path.join(options.home, 'Documents', 'Cline', 'Hooks') : path.join(root, '.clinerules', 'hooks');
      const target = options.scope === 'user' ? `"$HOME/${CLIENT_SCRIPT}"` : `"$(dirname -- "$0")/../../${CLIENT_SCRIPT}"`;
      // Cline ignores exit 2, and the shell's "cannot open" is exit 2 (dash) or 127: a missing client is {"cancel": true}.
      const text = `#!/bin/sh\n# basis-hooks (written by "basis-hooks install --agent cline"): ${OURS}\ns=${target}\n[ -f "$s" ] && exec sh "$s" cline\n${blockStatements('cline', MISSING_SCRIPT_REASON)}\n`;
      const files: Record<string, string> = {};
      for (const [event, name] of [['pre_tool_use', 'PreToolUse'], ['post_tool_use', 'PostToolUse']] as const) {
        const file = path.join(dir, name);
        const existing = await readFile(file, 'utf8').catch(() => undefined);
        if (input.uninstall === true) {
          if (existing?.includes(OURS) === true) changes.push({ kind: 'remove', file });
          continue;
        }
        if (HOOKS_OF(options.config, event).length === 0) continue;
        if (existing !== undefined && !existing.includes(OURS)) throw new InstallError('conflict', `${file} is another ${name} hook (Cline runs one file per event): move it aside or run it from a basis chain with "dialect": "cline"`);
        changes.push({ kind: 'write', file, text, mode: 0o755 });
        files[name] = text;
      }
      notes.push('Cline ignores exit 2: a block is {"cancel": true}, which stops the whole task. Cline cannot replace a result: a post-call deny or replacement cancels the task.');
      return { changes, settings: files, notes };
    }
    case 'cursor': {
      const file = path.join(root, '.cursor', 'hooks.json');
      const command = hookCommand(options, undefined);
      const entry = { command, timeout: agentSeconds(options.config), failClosed: true };
      const ours: Record<string, unknown[]> = {};
      if (HOOKS_OF(options.config, 'pre_tool_use').length > 0) for (const e of ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'preToolUse']) ours[e] = [entry];
      const settings = await readJsonObject(file);
      const hooks = typeof settings['hooks'] === 'object' && settings['hooks'] !== null ? (settings['hooks'] as Record<string, unknown>) : {};
      changes.push({ kind: 'write', file, text: jsonText({ version: 1, ...settings, hooks: mergeEventGroups(hooks, ours, OURS, undefined) }) });
      if (HOOKS_OF(options.config, 'post_tool_use').length > 0) notes.push('Cursor\'s after-the-fact hooks cannot block or replace a result: the post_tool_use hooks are not installed for Cursor.');
      return { changes, settings: { version: 1, hooks: ours }, notes };
    }
    case 'windsurf': {
      const file = options.scope === 'user' ? path.join(options.home, '.codeium', 'windsurf', 'hooks.json') : path.join(root, '.windsurf', 'hooks.json');
      const command = hookCommand(options, undefined);
      const ours: Record<string, unknown[]> = {};
      if (HOOKS_OF(options.config, 'pre_tool_use').length > 0) for (const e of ['pre_run_command', 'pre_read_code', 'pre_write_code', 'pre_mcp_tool_use']) ours[e] = [{ command, show_output: true }];
      const settings = await readJsonObject(file);
      const hooks = typeof settings['hooks'] === 'object' && settings['hooks'] !== null ? (settings['hooks'] as Record<string, unknown>) : {};
      changes.push({ kind: 'write', file, text: jsonText({ ...settings, hooks: mergeEventGroups(hooks, ours, OURS, undefined) }) });
      notes.push('Windsurf cannot apply a rewrite (a modify is blocked) and its post hooks cannot block or replace a result: post_tool_use hooks are not installed for Windsurf.');
      return { changes, settings: { hooks: ours }, notes };
    }
    case 'kiro': {
      const file = path.join(root, '.kiro', 'agents', 'basis-hooks.json');
      const command = hookCommand(options, undefined);
      const timeout_ms = agentSeconds(options.config) * 1000;
      const ours: Record<string, unknown[]> = {};
      if (HOOKS_OF(options.config, 'pre_tool_use').length > 0) ours['preToolUse'] = [{ matcher: '*', command, timeout_ms }];
      const agentFile = await readJsonObject(file);
      const hooks = typeof agentFile['hooks'] === 'object' && agentFile['hooks'] !== null ? (agentFile['hooks'] as Record<string, unknown>) : {};
      const next = { name: 'basis-hooks', description: KIRO_AGENT_DESCRIPTION, ...agentFile, hooks: mergeEventGroups(hooks, ours, OURS, undefined) };
      // The agent file is ours: uninstall removes it when nothing but what install wrote is left in it.
      const onlyOurs = Object.keys(next).every((k) => k === 'name' || k === 'description' || k === 'hooks') && next.name === 'basis-hooks' && next.description === KIRO_AGENT_DESCRIPTION && Object.keys(next.hooks).length === 0;
      changes.push(input.uninstall === true && onlyOurs ? { kind: 'remove', file } : { kind: 'write', file, text: jsonText(next) });
      // Kiro CLI 3.x (and the IDE 1.x) read standalone, versioned hook files in .kiro/hooks/, for every
      // agent of the workspace; their timeout is in seconds. Ours is its own file.
      const v3 = path.join(root, '.kiro', 'hooks', 'basis-hooks.json');
      const v3Hooks = HOOKS_OF(options.config, 'pre_tool_use').length > 0 ? [{ name: 'basis-hooks', trigger: 'PreToolUse', action: { type: 'command', command }, timeout: agentSeconds(options.config), enabled: true }] : [];
      changes.push(input.uninstall === true ? { kind: 'remove', file: v3 } : { kind: 'write', file: v3, text: jsonText({ version: 'v1', hooks: v3Hooks }) });
      notes.push('Kiro CLI 2.x reads hooks from an agent config: run `kiro-cli chat --agent basis-hooks` (or make it the default agent); Kiro CLI 3.x and the IDE read .kiro/hooks/basis-hooks.json for every agent. Kiro cannot rewrite (a modify is blocked) and its postToolUse cannot change a result: post_tool_use hooks are not installed.');
      return { changes, settings: { agent: { hooks: ours }, hooks_file: { version: 'v1', hooks: v3Hooks } }, notes };
    }
  }
}
