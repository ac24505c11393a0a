/**
 * Signal a hook's whole process group. Hooks are spawned `detached` (their own session and group,
 * group id = the hook's pid), so this reaches every descendant that did not deliberately leave the
 * group — a shell's pipeline, a background `&`, a grandchild still holding stdout.
 *
 * Returns false when the group no longer exists (ESRCH) or cannot be signalled; killing something
 * already gone is not an error.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
