import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CedarHookConfig, CommandHookConfig, ComponentHookConfig, HookConfig, HooksConfig } from './schema.js';

/**
 * Set in every command hook's environment: the absolute directory of the config file that declared
 * it, so a shell command string can name its script portably (`"$BASIS_HOOKS_CONFIG_DIR/hooks/x.sh"`).
 * An explicit `env` entry of the same name wins.
 */
export const CONFIG_DIR_ENV = 'BASIS_HOOKS_CONFIG_DIR';

/**
 * Make a config independent of the process's working directory: every path in it is resolved
 * against `dir`, the directory of the config file. A hook runs with the request's workspace as its
 * cwd, so a path left relative would mean something different for every call.
 *
 * The rules:
 * - `component`, a Cedar hook's `cedar`, `entities` and `schema`, the host side of
 *   `grants.read_only_dirs` and `audit` are always resolved against `dir`;
 * - a `command` argv entry (the program or any argument) is rewritten to `dir/<entry>` when it is a
 *   relative path containing a `/` (`hooks/x.mjs`, `./x.sh`) **and** that file exists there — so
 *   `["node", "hooks/x.mjs"]` finds the script next to the config, while bare names (`node`, `sh`)
 *   still go through `PATH` and arguments that merely contain a slash (`origin/main`) are left alone;
 * - a `command` string (run with `sh -c`) is never rewritten: the shell owns its parsing. Scripts
 *   are reached with `"$BASIS_HOOKS_CONFIG_DIR/…"` ({@link CONFIG_DIR_ENV}, given to argv hooks too).
 *
 * @example
 * resolveConfigPaths(config, '/etc/agent') // hooks/x.mjs → /etc/agent/hooks/x.mjs (when it exists)
 */
export function resolveConfigPaths(config: HooksConfig, dir: string): HooksConfig {
  const base = path.resolve(dir);
  const resolved = { ...config, hooks: config.hooks.map((hook) => resolveHook(hook, base)) };
  // The audit file, like a component, is always relative to the config file.
  return config.audit === undefined ? resolved : { ...resolved, audit: path.resolve(base, config.audit) };
}

function resolveHook(hook: HookConfig, dir: string): HookConfig {
  if ('command' in hook) return resolveCommandHook(hook, dir);
  if ('component' in hook) return resolveComponentHook(hook, dir);
  return 'cedar' in hook ? resolveCedarHook(hook, dir) : hook;
}

function resolveCedarHook(hook: CedarHookConfig, dir: string): CedarHookConfig {
  const cedar = path.resolve(dir, hook.cedar);
  const entities = hook.entities === undefined ? {} : { entities: path.resolve(dir, hook.entities) };
  const schema = hook.schema === undefined ? {} : { schema: path.resolve(dir, hook.schema) };
  return { ...hook, cedar, ...entities, ...schema };
}

function resolveCommandHook(hook: CommandHookConfig, dir: string): CommandHookConfig {
  const command = typeof hook.command === 'string' ? hook.command : hook.command.map((arg) => resolveArg(arg, dir));
  const resolved = { ...hook, command, env: { [CONFIG_DIR_ENV]: dir, ...hook.env } };
  // Pinned files, like a component, are always relative to the config file.
  return hook.pin_files === undefined ? resolved : { ...resolved, pin_files: hook.pin_files.map((file) => path.resolve(dir, file)) };
}

function resolveArg(arg: string, dir: string): string {
  if (path.isAbsolute(arg) || !arg.includes('/')) return arg;
  const candidate = path.resolve(dir, arg);
  return existsSync(candidate) ? candidate : arg;
}

function resolveComponentHook(hook: ComponentHookConfig, dir: string): ComponentHookConfig {
  const component = path.resolve(dir, hook.component);
  if (hook.grants?.read_only_dirs === undefined) return { ...hook, component };
  const read_only_dirs = Object.fromEntries(
    Object.entries(hook.grants.read_only_dirs).map(([guest, host]) => [guest, path.resolve(dir, host)]),
  );
  return { ...hook, component, grants: { ...hook.grants, read_only_dirs } };
}
