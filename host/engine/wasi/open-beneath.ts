import { closeSync, constants, fstatSync, openSync, opendirSync, readlinkSync, realpathSync, statSync, type Dir, type Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/*
 * Opening a path inside a read-only grant without a check-then-open race. A writer of the granted
 * directory may swap what a path names between any two system calls: a FIFO (whose open would block
 * the thread until a writer comes), a symlink pointing out of the grant, a directory for a file. So
 * nothing is decided on a path: the path is opened first — never following a symlink in its last
 * component, never blocking — and what was opened is checked, through its descriptor: its type
 * (`fstat`) and where it really is (Linux: `/proc/self/fd/N`, the kernel's own name for it; elsewhere
 * the path resolved again must still name the same file).
 */

/** `open` flags: read only, no symlink as the last component, no blocking (a FIFO opens at once). Absent on Windows: 0. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Whether `path` is `root` or inside it (both absolute and resolved). */
export function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** An error with a Node errno code (mapped to a WASI error code by the caller). */
function errno(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

let procFd: boolean | undefined;

/** Where the open file `fd` really is, when the platform says so (Linux); undefined elsewhere. */
function locationOf(fd: number): string | undefined {
  if (procFd === false) return undefined;
  try {
    const at = readlinkSync(`/proc/self/fd/${fd}`);
    procFd = true;
    return at;
  } catch {
    procFd ??= false;
    return undefined;
  }
}

/** What {@link openBeneath} opened. */
export interface Opened {
  readonly fd: number;
  readonly stats: Stats;
  /** Its real path (inside the root). */
  readonly path: string;
}

/**
 * Open `real` (a path inside `root`, resolved by the caller) for reading, and check the descriptor:
 * a regular file or a directory, inside `root`. Throws an errno-coded error: `ELOOP` when the last
 * component became a symlink, `EPERM` for anything that is not a regular file or directory (a FIFO, a
 * socket, a device) or that lies outside `root`. The caller owns the returned descriptor.
 */
export function openBeneath(root: string, real: string): Opened {
  const fd = openSync(real, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() && !stats.isDirectory()) throw errno('EPERM', 'not a regular file or directory');
    const at = locationOf(fd);
    if (at !== undefined) {
      if (!within(root, at)) throw errno('EPERM', 'outside the granted directory');
      return { fd, stats, path: at };
    }
    // No kernel name for it: the path, resolved again, must still be inside and be this very file.
    const again = realpathSync.native(real); // realpath(3): no EINVAL when a symlink is swapped mid-walk
    const named = statSync(again);
    if (!within(root, again) || named.ino !== stats.ino || named.dev !== stats.dev) throw errno('EPERM', 'the path changed while it was opened');
    return { fd, stats, path: again };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * A directory listing of `real` read entry by entry (the system reads a few dozen at a time), of the
 * very directory that was opened and checked — not of whatever the path names by the time it is listed.
 */
export function openDirectoryBeneath(root: string, real: string): Dir {
  const opened = openBeneath(root, real);
  try {
    if (!opened.stats.isDirectory()) throw errno('ENOTDIR', 'not a directory');
    // Linux: list the opened directory through its descriptor's name; elsewhere its checked path.
    return opendirSync(procFd === true ? `/proc/self/fd/${opened.fd}` : opened.path);
  } finally {
    closeSync(opened.fd);
  }
}
