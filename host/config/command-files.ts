import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isHookError } from '../errors/hook-error.js';
import { checkStartable } from '../transports/subprocess/check.js';
import { resolveSubprocessOptions, SHELL } from '../transports/subprocess/options.js';
import { CONFIG_DIR_ENV } from './resolve.js';
import type { CommandHookConfig } from './schema.js';
import { shellWords } from './shell-words.js';
import { closest } from './suggest.js';

/** What `check` found about the program and files a command hook names. */
export interface CommandFindings {
  /** The hook cannot work: a program that is not on PATH, a script that does not exist. */
  readonly errors: readonly string[];
  /** Could not be vouched for ahead of a call, but may be fine (a path for the call's workspace, shell syntax). */
  readonly warnings: readonly string[];
}

/** Extensions that make an argument a script file whatever else it looks like. */
const SCRIPT_EXTENSIONS = /\.(py|js|mjs|cjs|ts|mts|cts|jsx|tsx|sh|bash|zsh|fish|rb|pl|php|lua|r|jl|ps1|jar|wasm)$/i;

/** Shell builtins: a command string may start with one, and it is not on PATH. */
const BUILTINS = new Set([
  ':', '.', 'break', 'continue', 'eval', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'times', 'trap', 'unset',
  'alias', 'bg', 'cd', 'false', 'fg', 'getopts', 'hash', 'jobs', 'kill', 'pwd', 'read', 'true', 'type', 'ulimit', 'umask',
  'unalias', 'wait', 'echo', 'printf', 'test', '[', 'source',
]);

/**
 * Find what a command hook needs on disk and is missing, without running it:
 *
 * - the **program**: argv[0], or for a `sh -c` string the first word of its first simple command
 *   (after `VAR=value` assignments, `exec` and `command`; builtins are fine), looked up like spawn
 *   does — on the `PATH` the hook will get, or as a path;
 * - every **argument that names a file**: one ending in a script extension (`.py`, `.mjs`, `.sh`…) or
 *   starting with `/`, `./`, `../` must exist; one that merely contains a `/` (`origin/main`?) is a
 *   warning when there is no such file. In argv, a relative path is looked for beside the config
 *   ({@link resolveConfigPaths} rewrote the ones it found there, so one still relative was not);
 *   in a shell string it is relative to the call's workspace, which cannot be known here: a warning
 *   (with the portable `"$BASIS_HOOKS_CONFIG_DIR/…"` spelling when the file is beside the config).
 *
 * A shell string with syntax beyond one simple command (`|`, `&&`, `$(…)`, globs) is checked up to
 * the first such construct — its first program, usually — and the rest is left to the shell; when
 * not even the program can be known, that is a warning, never a failure.
 *
 * Each message names the file or program, where it was looked for (the config's directory or
 * `PATH`) and, when one is close, what was probably meant.
 */
export async function findCommandProblems(hook: CommandHookConfig): Promise<CommandFindings> {
  const errors: string[] = [];
  const warnings: string[] = [];
  const env = { ...process.env, ...hook.env };
  const configDir = hook.env?.[CONFIG_DIR_ENV] ?? process.cwd();

  if (typeof hook.command !== 'string') {
    const [program, ...args] = hook.command;
    if (program !== undefined) await checkProgram(program, 'argv[0]', env, configDir, errors);
    for (const [index, arg] of args.entries()) await checkArgvFile(arg, `argv[${index + 1}]`, configDir, errors, warnings);
    return { errors, warnings };
  }

  const parsed = shellWords(hook.command, env);
  if (parsed.broken !== undefined) {
    errors.push(`the shell command has ${parsed.broken}: ${SHELL} -c cannot run it`);
    return { errors, warnings };
  }
  const words = [...parsed.words];
  while (words[0] !== undefined && /^[A-Za-z_]\w*=/.test(words[0])) words.shift();
  if ((words[0] === 'exec' || words[0] === 'command') && words[1] !== undefined && !words[1].startsWith('-')) words.shift();
  const [program, ...args] = words;
  if (program === undefined) {
    warnings.push(`the program was not checked: the shell command starts with ${parsed.stopped ?? 'no command'}, which only the shell can resolve`);
    return { errors, warnings };
  }
  if (program.includes('/') && !path.isAbsolute(program)) await checkShellFile(program, configDir, errors, warnings);
  else if (!BUILTINS.has(program)) await checkProgram(program, 'the program', env, configDir, errors);
  for (const arg of args) await checkShellFile(arg, configDir, errors, warnings);
  return { errors, warnings };
}

async function checkProgram(program: string, what: string, env: Record<string, string | undefined>, configDir: string, errors: string[]): Promise<void> {
  const defined: Record<string, string> = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  try {
    // The transport's own rule: the same lookup spawn will do, on the PATH the hook will get.
    await checkStartable(resolveSubprocessOptions({ command: [program], env: defined }));
  } catch (error) {
    if (!isHookError(error)) throw error;
    if (program.includes('/')) {
      // resolveConfigPaths made it absolute when it was beside the config: a relative one was not there.
      const where = path.resolve(configDir, program);
      const located = path.isAbsolute(program) ? '' : ' (relative paths are looked up beside the config)';
      const problem = (await fileProblem(where)) ?? 'is not executable';
      errors.push(`${what} ${JSON.stringify(program)} ${problem}: looked for ${where}${located}${await nearFile(where, program)}`);
    } else {
      const hint = await nearProgram(program, defined['PATH'] ?? '');
      errors.push(`${what} ${JSON.stringify(program)} is not an executable file on PATH${hint}`);
    }
  }
}

async function checkArgvFile(arg: string, what: string, configDir: string, errors: string[], warnings: string[]): Promise<void> {
  const kind = fileKind(arg);
  if (kind === undefined) return;
  // Found beside the config, resolveConfigPaths made it absolute; a relative one was not found there.
  const where = path.resolve(configDir, arg);
  const problem = await fileProblem(where);
  if (problem === undefined) return;
  const hint = await nearFile(where, arg);
  const located = path.isAbsolute(arg) ? '' : ' (relative paths are looked up beside the config)';
  const message = `${what} ${JSON.stringify(arg)} ${problem}: looked for ${where}${located}${hint}`;
  if (kind === 'file') errors.push(message);
  else warnings.push(`${message}; if it is meant as a path in the call's workspace, it cannot be checked ahead`);
}

async function checkShellFile(arg: string, configDir: string, errors: string[], warnings: string[]): Promise<void> {
  const kind = fileKind(arg);
  if (kind === undefined) return;
  if (path.isAbsolute(arg)) {
    const problem = await fileProblem(arg);
    if (problem === undefined) return;
    const message = `${JSON.stringify(arg)} ${problem}${await nearFile(arg, arg)}`;
    if (kind === 'file') errors.push(message);
    else warnings.push(message);
    return;
  }
  // A shell string is never rewritten: the path is relative to the call's workspace.
  const beside = path.resolve(configDir, arg);
  if ((await fileProblem(beside)) === undefined) {
    warnings.push(
      `${JSON.stringify(arg)} is relative, and a shell command runs in the call's workspace, not beside the config: ` +
        `write "$${CONFIG_DIR_ENV}/${arg.replace(/^\.\//, '')}" to name ${beside}`,
    );
  } else if (kind === 'file') {
    warnings.push(`${JSON.stringify(arg)} is relative to the call's workspace (a shell command is not rewritten), so it cannot be checked ahead; it is not beside the config either (${beside})`);
  }
}

/**
 * Whether an argument names a file: `file` (a script extension, or starts with `/`, `./`, `../`),
 * `maybe` (contains a `/` — a path, or a git ref), or `undefined` (a flag, a URL, JSON, a word).
 */
function fileKind(arg: string): 'file' | 'maybe' | undefined {
  if (arg.startsWith('-') || arg.includes('://') || !/^[\w@%+=:,./~-]+$/.test(arg)) return undefined;
  if (SCRIPT_EXTENSIONS.test(arg) || /^(\/|\.\.?\/)/.test(arg)) return 'file';
  return arg.includes('/') ? 'maybe' : undefined;
}

/** Why `file` is not a readable file, or `undefined` when it is one. */
async function fileProblem(file: string): Promise<string | undefined> {
  try {
    return (await stat(file)).isFile() ? undefined : 'is not a file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be accessed (${String(code)})`;
  }
}

/** ` (did you mean "hooks/guard.py"?)` when a file of a close name sits in the same directory. */
async function nearFile(file: string, written: string): Promise<string> {
  let names: string[];
  try {
    names = await readdir(path.dirname(file));
  } catch {
    return '';
  }
  const meant = closest(path.basename(file), names);
  if (meant === undefined) return '';
  const shown = path.join(path.dirname(written), meant);
  return ` (did you mean ${JSON.stringify(written.startsWith('./') ? `./${shown}` : shown)}?)`;
}

/** ` (did you mean "python3"?)` when a program of a close name is on PATH. */
async function nearProgram(program: string, searchPath: string): Promise<string> {
  const names = new Set<string>();
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    try {
      for (const name of await readdir(dir)) names.add(name);
    } catch {
      // A PATH entry that does not exist is common and harmless.
    }
  }
  const meant = closest(program, names);
  return meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`;
}
