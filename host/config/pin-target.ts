import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandHookConfig, HookConfig } from './schema.js';

/**
 * The files a hook's `sha256` covers — its own code — or why it has none. `uncovered` names what
 * runs but is not covered (the interpreter), so `check` can say exactly what a pin does and does
 * not vouch for.
 */
export type PinTarget =
  | { readonly files: readonly string[]; readonly uncovered: readonly string[] }
  | { readonly none: string };

/**
 * Programs that run *other* code: an interpreter, a launcher or a package runner. When one of them is
 * the command, the hook's code is the script it is given, never the program itself — a pin of
 * `/usr/bin/env` or of `python3` vouches for nothing the hook's author wrote.
 */
const INTERPRETERS = new Set([
  'env', 'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'busybox', 'pwsh', 'powershell',
  'node', 'nodejs', 'deno', 'bun', 'tsx', 'ts-node', 'npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx',
  'python', 'pypy', 'pypy3', 'uv', 'uvx', 'pipx', 'poetry', 'pdm', 'hatch', 'rye',
  'ruby', 'bundle', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'R', 'julia', 'java', 'dotnet', 'go',
  'osascript', 'tclsh', 'wish', 'awk', 'gawk', 'mawk', 'nix', 'nix-shell', 'sudo', 'doas', 'nice',
  'nohup', 'timeout', 'xargs', 'exec', 'time', 'stdbuf', 'setsid', 'chrt', 'ionice', 'taskset',
]);

/** `python3`, `python3.12`, `node20`, `ruby3.2`: an interpreter with its version in the name. */
const VERSIONED = /^(python|pypy|node|ruby|perl|php|lua|pwsh)[\d.]*$/;

/** Whether a program (a bare name or a path) is an interpreter or launcher by its name. */
export function isInterpreter(program: string): boolean {
  const base = path.basename(program);
  return INTERPRETERS.has(base) || VERSIONED.test(base);
}

/**
 * Which files a hook's `sha256` is the digest of — the hook's own code, never only the program that
 * runs it:
 *
 * - a component hook: the component file;
 * - a Cedar hook: its policy set, entities and schema files, in that order (those it has);
 * - a CEL hook: none (its rules are in the config);
 * - a command hook with `pin_files`: exactly those files (resolved beside the config), in order;
 * - a command given as argv:
 *   1. when `argv[0]` is an interpreter or launcher (`node`, `python3`, `/usr/bin/env`, `sh`, `npx`…,
 *      see {@link isInterpreter}), the first later argument that is an absolute path to an existing
 *      regular file — the script it runs (relative entries that exist beside the config were made
 *      absolute when it was loaded). `["/usr/bin/env", "python3", "/abs/guard.py"]` covers
 *      `/abs/guard.py`; the interpreter is reported as uncovered. No such argument: no file of the
 *      hook's own (`python3 -m pkg`, `node -e …`, a script relative to the call's workspace) — the
 *      hook cannot be pinned without `pin_files`;
 *   2. when `argv[0]` is any other program given as a path: that file — the hook *is* that program;
 *   3. when it is any other bare name: the program as found on `PATH` (the hook's `env.PATH` over the host's);
 * - a command given as a shell string: none (the shell owns its parsing; use `pin_files`).
 *
 * More than one file: the digest is that of their digests, one hex line each, in order
 * (see `pinDigest`); one file: that file's own sha256.
 */
export async function pinTarget(hook: HookConfig): Promise<PinTarget> {
  if ('component' in hook) return { files: [hook.component], uncovered: [] };
  // A Cedar hook is its policies, entities and schema: what its loader reads, and checks the pin on.
  if ('cedar' in hook) return { files: [hook.cedar, hook.entities, hook.schema].filter((file): file is string => file !== undefined), uncovered: [] };
  if ('cel' in hook) return { none: 'a CEL hook\'s rules are in the config itself (pin the config file instead)' };
  if (hook.pin_files !== undefined) return { files: hook.pin_files, uncovered: await commandUncovered(hook) };
  return commandPinTarget(hook);
}

async function commandPinTarget(hook: CommandHookConfig): Promise<PinTarget> {
  const { command } = hook;
  if (typeof command === 'string') return { none: 'a shell command string has no single script file (list the hook\'s files in "pin_files")' };
  const [program, ...args] = command;
  if (program === undefined) return { none: 'the command is empty' };
  const searchPath = hook.env?.['PATH'] ?? process.env['PATH'] ?? '';
  if (isInterpreter(program)) {
    const interpreter = program.includes('/') ? program : ((await onPath(program, searchPath)) ?? program);
    for (const arg of args) {
      if (path.isAbsolute(arg) && (await isFile(arg))) return { files: [arg], uncovered: [`${interpreter} (the interpreter)`] };
    }
    return {
      none:
        `${JSON.stringify(program)} is an interpreter and no later argument names an existing file beside the config, so no file of the hook's own ` +
        `would be covered (list its files in "pin_files")`,
    };
  }
  if (program.includes('/')) {
    if (!path.isAbsolute(program)) return { none: `${JSON.stringify(program)} is relative to each call's workspace, so it cannot be pinned ahead of the call` };
    return { files: [program], uncovered: [] };
  }
  const found = await onPath(program, searchPath);
  return found === undefined ? { none: `${JSON.stringify(program)} is not an executable file on PATH` } : { files: [found], uncovered: [] };
}

/** With `pin_files`, what runs that the listed files do not include: the program, when it is not one of them. */
async function commandUncovered(hook: CommandHookConfig): Promise<readonly string[]> {
  if (typeof hook.command === 'string') return ['the shell command string itself'];
  const [program] = hook.command;
  if (program === undefined) return [];
  const resolved = program.includes('/') ? program : ((await onPath(program, hook.env?.['PATH'] ?? process.env['PATH'] ?? '')) ?? program);
  if (hook.pin_files?.includes(resolved) === true) return [];
  return [isInterpreter(program) ? `${resolved} (the interpreter)` : `${resolved} (the program)`];
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Where `program` is found on `searchPath`, as spawn finds it: the first executable regular file. */
export async function onPath(program: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.resolve(dir, program);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here: the next directory.
    }
  }
  return undefined;
}
