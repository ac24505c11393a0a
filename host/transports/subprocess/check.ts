import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { HookError } from '../../errors/hook-error.js';
import type { ResolvedSubprocessOptions } from './options.js';

/**
 * Verify a subprocess hook can be started, without running it: its working directory override is a
 * directory, and the program it execs (argv[0], or `sh` for the string form) resolves to an
 * executable file the way spawn resolves it — a bare name on the `PATH` the hook will get (its `env`
 * applied over the host's), a name with a slash relative to the cwd it will run in. Rejects with a
 * `HookError` (`spawn_failed`) that names the command.
 *
 * A relative argv[0] is checked against `cwd` or process.cwd(): a hook that is only startable from
 * some request's workspace cannot be vouched for ahead of the call.
 */
export async function checkStartable(options: ResolvedSubprocessOptions): Promise<void> {
  const { launch } = options;
  const fail = (detail: string): HookError => new HookError('spawn_failed', `cannot start hook ${launch.display}: ${detail}`);
  if (options.cwd !== undefined && !(await isDirectory(options.cwd))) {
    throw fail(`working directory ${JSON.stringify(options.cwd)} is not a directory`);
  }
  const base = options.cwd ?? process.cwd();
  if (launch.file.includes('/')) {
    const problem = await executableProblem(path.resolve(base, launch.file));
    if (problem !== undefined) throw fail(`${JSON.stringify(launch.file)} ${problem}`);
    return;
  }
  const searchPath = options.env['PATH'] ?? process.env['PATH'] ?? '';
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    if ((await executableProblem(path.resolve(base, dir, launch.file))) === undefined) return;
  }
  throw fail(`${JSON.stringify(launch.file)} is not an executable file on PATH`);
}

/**
 * The absolute path spawn would exec for this hook in `cwd`, resolved the way spawn resolves it (see
 * {@link checkStartable}), or why there is none, phrased as spawn's own error would be. Used when the
 * hook runs under a wrapper (containment.ts): the wrapper's exec failure would otherwise look like the
 * hook exiting 127, not like a hook that cannot be started.
 */
export async function resolveProgram(options: ResolvedSubprocessOptions, cwd: string): Promise<{ readonly ok: true; readonly file: string } | { readonly ok: false; readonly detail: string }> {
  const { file } = options.launch;
  const describe = (problem: string): string =>
    problem === 'does not exist' ? 'not found (ENOENT)' : problem === 'is not executable' ? 'not executable (EACCES)' : problem === 'is not a file' ? 'not executable (EACCES: not a file)' : problem;
  if (file.includes('/')) {
    const full = path.resolve(cwd, file);
    const problem = await executableProblem(full);
    return problem === undefined ? { ok: true, file: full } : { ok: false, detail: describe(problem) };
  }
  const searchPath = options.env['PATH'] ?? process.env['PATH'] ?? '';
  let first: string | undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const full = path.resolve(cwd, dir, file);
    const problem = await executableProblem(full);
    if (problem === undefined) return { ok: true, file: full };
    // Like execvp: a match that cannot be executed is reported over "not found".
    if (problem !== 'does not exist') first ??= problem;
  }
  return { ok: false, detail: describe(first ?? 'does not exist') };
}

/** Why `file` cannot be exec'd, or undefined when it can. */
async function executableProblem(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return 'is not a file';
    await access(file, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : code === 'EACCES' ? 'is not executable' : `cannot be accessed (${String(code)})`;
  }
}

/** True when `dir` exists and is a directory. */
export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
