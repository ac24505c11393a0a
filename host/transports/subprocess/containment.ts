import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs';

/**
 * How a subprocess hook's descendants are kept from outliving it.
 *
 * Every hook leads its own process group, and the group is killed when the hook exits or is stopped.
 * That reaches everything except a descendant that deliberately leaves the group (`setsid`, a
 * daemon's double fork): it would outlive the call, and the host. On Linux each hook therefore runs
 * in its own PID namespace (`unshare --pid --fork --kill-child`, util-linux), under a tiny init (a
 * POSIX shell that starts the hook and waits for it). When the hook exits the init exits, and the
 * kernel kills every process left in the namespace, escaped or not; when the host kills the group,
 * `unshare` dies and takes the namespace with it (`--kill-child`).
 *
 * - As root (or with CAP_SYS_ADMIN) the namespace needs nothing else. Without, it is made inside a
 *   user namespace that maps the user to itself (`--user --map-current-user`): the hook keeps its uid
 *   and gid, but supplementary groups show as `nogroup` and it cannot gain privileges (setuid).
 * - What works is probed once per process, by running the exact wrapper; anything that fails (no
 *   `unshare`, namespaces disabled, a seccomp policy, another OS) falls back to the process group
 *   alone, which is what docs/sandbox-and-limits.md promises there.
 * - `BASIS_HOOKS_SUBPROCESS_CONTAINMENT=process-group` turns the namespace off (a hook that must see
 *   host pids as its own, for example).
 *
 * What a hook sees inside: its pid is 2 (the init is 1) and `$PPID` is 1; `/proc` is still the
 * host's (not remounted); `PWD` is set to its working directory by the init shell. Signals from the
 * host reach it as before (the whole group is signalled; the init ignores them, as an init does).
 */
export type Containment =
  | { readonly kind: 'pid-namespace'; readonly unshare: string; readonly flags: readonly string[] }
  | { readonly kind: 'process-group'; readonly why: string };

/**
 * The init: keeps its stdin for the hook (a background job's stdin is /dev/null unless redirected
 * explicitly), starts the hook, and exits with its status — 128+n when a signal n killed it.
 */
const INIT = 'exec 3<&0; "$@" <&3 3<&- & wait $!';
const INIT_NAME = 'basis-hooks-init';

const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare'];
const VARIANTS: readonly (readonly string[])[] = [
  ['--pid', '--fork', '--kill-child'],
  ['--user', '--map-current-user', '--pid', '--fork', '--kill-child'],
];
const PROBE_TIMEOUT_MS = 5000;

/** The env switch that turns the PID namespace off. */
export const CONTAINMENT_ENV = 'BASIS_HOOKS_SUBPROCESS_CONTAINMENT';

let probed: Promise<Containment> | undefined;

function executable(file: string): Promise<boolean> {
  return new Promise((resolve) => access(file, constants.X_OK, (error) => resolve(error === null)));
}

/** Run the wrapper around `sh -c 'exit 7'`: it works when the exit status comes back through it. */
function tryVariant(unshare: string, flags: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(unshare, [...flags, '--', '/bin/sh', '-c', INIT, INIT_NAME, '/bin/sh', '-c', 'exit 7'], { stdio: 'ignore' });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 7);
    });
  });
}

async function probe(): Promise<Containment> {
  if (process.platform !== 'linux') return { kind: 'process-group', why: `not Linux (${process.platform})` };
  if (process.env[CONTAINMENT_ENV] === 'process-group') return { kind: 'process-group', why: `${CONTAINMENT_ENV}=process-group` };
  let unshare: string | undefined;
  for (const path of UNSHARE_PATHS) {
    if (await executable(path)) {
      unshare = path;
      break;
    }
  }
  if (unshare === undefined) return { kind: 'process-group', why: 'no unshare (util-linux) found' };
  for (const flags of VARIANTS) {
    if (await tryVariant(unshare, flags)) return { kind: 'pid-namespace', unshare, flags };
  }
  return { kind: 'process-group', why: 'PID namespaces are not available to this process' };
}

/** What this process can do, probed once (a few ms, on the first subprocess call). */
export function containment(): Promise<Containment> {
  probed ??= probe();
  return probed;
}

/**
 * The program to spawn for a hook whose program is `file` (an absolute path: it is resolved before,
 * so a missing program is still `spawn_failed`, not an init's exit 127).
 */
export function contained(how: Containment, file: string, args: readonly string[]): { readonly file: string; readonly args: readonly string[] } {
  if (how.kind === 'process-group') return { file, args };
  return { file: how.unshare, args: [...how.flags, '--', '/bin/sh', '-c', INIT, INIT_NAME, file, ...args] };
}
