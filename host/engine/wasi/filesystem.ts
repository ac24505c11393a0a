import { closeSync, fstatSync, lstatSync, readSync, realpathSync, type Dir, type Dirent, type Stats } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type * as WasiPreopens from './generated/interfaces/wasi-filesystem-preopens.js';
import type * as WasiFs from './generated/interfaces/wasi-filesystem-types.js';
import { InputStream, own, type ByteSource } from './io.js';
import { openBeneath, openDirectoryBeneath, within, type Opened } from './open-beneath.js';
import { released, type ResourceLedger, type ResourceScope } from './resources.js';
import { wasiErr } from './wasi-error.js';

/*
 * wasi:filesystem for the sandbox. Without a grant there are no preopened directories, so a guest has
 * no descriptor to open anything from. A `read_only_dirs` grant preopens a host directory under a
 * guest path; inside it the guest may stat, list and read, nothing else: every mutating call answers
 * `read-only`, and a path that leaves the directory (`..`, an absolute path, a symlink pointing out)
 * answers `not-permitted`. What a path names is opened first and checked through its descriptor
 * (open-beneath.ts): a writer of the granted directory cannot swap in a FIFO, a device or a symlink
 * between a check and an open, and a directory is listed entry by entry, whatever its size.
 */

/** Longest path a guest may pass (Linux's PATH_MAX): a longer one answers `name-too-long` before any work. */
const MAX_PATH_BYTES = 4096;

type ErrorCode = WasiFs.ErrorCode;

/** Node's errno names → WASI error codes; anything unlisted is `io`. */
const ERRNO: Readonly<Record<string, ErrorCode>> = {
  ENOENT: 'no-entry',
  EACCES: 'access',
  EPERM: 'not-permitted',
  ENOTDIR: 'not-directory',
  EISDIR: 'is-directory',
  ELOOP: 'loop',
  ENAMETOOLONG: 'name-too-long',
  EMFILE: 'insufficient-memory',
  ENXIO: 'no-such-device',
};

function fsErr(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  return wasiErr<ErrorCode>((typeof code === 'string' ? ERRNO[code] : undefined) ?? 'io');
}

function readOnly(): never {
  return wasiErr<ErrorCode>('read-only');
}

/** Open file descriptors of one sandbox, closed when its instance is discarded. */
export class OpenFiles {
  readonly #fds = new Set<number>();
  /** Keep `fd` (opened by {@link openBeneath}) until it is closed or the instance goes. */
  adopt(fd: number): number {
    this.#fds.add(fd);
    return fd;
  }
  close(fd: number): void {
    if (this.#fds.delete(fd)) closeSync(fd);
  }
  closeAll(): void {
    for (const fd of this.#fds) closeSync(fd);
    this.#fds.clear();
  }
}

interface DescriptorState {
  /** Real path of the preopened directory this descriptor lives in (containment boundary). */
  readonly root: string;
  /** Real path of what it denotes. */
  readonly path: string;
  readonly kind: 'directory' | 'regular-file';
  /** For files: the open fd (read-only). */
  fd: number | undefined;
  readonly files: OpenFiles;
  /** Where the descriptors and streams handed out for it are counted. */
  readonly ledger: ResourceLedger;
}

// State lives outside the objects the guest's glue holds: the WIT resource classes take no
// constructor arguments, and nothing on the object itself should be reachable or forgeable.
const states = new WeakMap<object, DescriptorState>();

function stateOf(descriptor: unknown): DescriptorState {
  const state = states.get(own(descriptor, Descriptor, 'descriptor'));
  if (state === undefined) throw new TypeError('descriptor without state');
  return state;
}

function toDatetime(ms: number): WasiFs.Datetime {
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanoseconds: Math.floor((ms - seconds * 1000) * 1_000_000) };
}

function typeOf(stats: Stats | Dirent): WasiFs.DescriptorType {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'regular-file';
  if (stats.isSymbolicLink()) return 'symbolic-link';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character-device';
  if (stats.isBlockDevice()) return 'block-device';
  return 'unknown';
}

function toStat(stats: Stats): WasiFs.DescriptorStat {
  return {
    type: typeOf(stats),
    linkCount: BigInt(stats.nlink),
    size: BigInt(stats.size),
    dataAccessTimestamp: toDatetime(stats.atimeMs),
    dataModificationTimestamp: toDatetime(stats.mtimeMs),
    statusChangeTimestamp: toDatetime(stats.ctimeMs),
  };
}

/** Resolve a guest path relative to a directory descriptor, refusing anything outside its preopen. */
function resolveAt(dir: DescriptorState, path: string): string {
  if (dir.kind !== 'directory') wasiErr<ErrorCode>('not-directory');
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) wasiErr<ErrorCode>('name-too-long');
  if (path.includes('\0')) wasiErr<ErrorCode>('invalid');
  if (isAbsolute(path)) wasiErr<ErrorCode>('not-permitted');
  const lexical = resolve(dir.path, path);
  if (!within(dir.root, lexical)) wasiErr<ErrorCode>('not-permitted');
  let real: string;
  try {
    // The system's realpath(3), not Node's JavaScript one: that one lstat()s a component and then
    // readlink()s it, and when a writer of the grant swaps a symlink for a file in between it fails
    // with EINVAL, which would reach the guest as `io` (seen ~1 call in 300 under a swapping writer).
    real = realpathSync.native(lexical);
  } catch (error) {
    return fsErr(error);
  }
  // A symlink inside the directory may point anywhere: what counts is where it lands.
  if (!within(dir.root, real)) wasiErr<ErrorCode>('not-permitted');
  return real;
}

function fileSource(state: DescriptorState, offset: bigint): ByteSource {
  let position = Number(offset);
  return {
    read(max) {
      if (state.fd === undefined) return undefined;
      const buffer = new Uint8Array(max);
      const n = readSync(state.fd, buffer, 0, max, position);
      if (n === 0) return undefined;
      position += n;
      return buffer.subarray(0, n);
    },
  };
}

/** `wasi:filesystem/types.descriptor`: a directory or file inside a read-only grant. */
class Descriptor {
  readViaStream(offset: bigint): WasiFs.InputStream {
    const state = stateOf(this);
    if (state.kind !== 'regular-file') wasiErr<ErrorCode>('is-directory');
    const stream = new InputStream(fileSource(state, offset));
    return state.ledger.track(stream, 'call', () => stream.close());
  }
  writeViaStream(_offset: bigint): WasiFs.OutputStream {
    return readOnly();
  }
  appendViaStream(): WasiFs.OutputStream {
    return readOnly();
  }
  advise(_offset: bigint, _length: bigint, _advice: WasiFs.Advice): void {}
  syncData(): void {}
  getFlags(): WasiFs.DescriptorFlags {
    stateOf(this);
    return { read: true };
  }
  getType(): WasiFs.DescriptorType {
    return stateOf(this).kind;
  }
  setSize(_size: bigint): void {
    readOnly();
  }
  setTimes(_atime: WasiFs.NewTimestamp, _mtime: WasiFs.NewTimestamp): void {
    readOnly();
  }
  read(length: bigint, offset: bigint): [Uint8Array, boolean] {
    const state = stateOf(this);
    if (state.fd === undefined) return wasiErr<ErrorCode>('is-directory');
    const max = Number(length < 1_048_576n ? length : 1_048_576n);
    const buffer = new Uint8Array(max);
    let n: number;
    try {
      n = readSync(state.fd, buffer, 0, max, Number(offset));
    } catch (error) {
      return fsErr(error);
    }
    return [buffer.subarray(0, n), n < max || n === 0];
  }
  write(_buffer: Uint8Array, _offset: bigint): bigint {
    return readOnly();
  }
  readDirectory(): WasiFs.DirectoryEntryStream {
    const state = stateOf(this);
    if (state.kind !== 'directory') wasiErr<ErrorCode>('not-directory');
    state.ledger.ensureRoom(); // before a host directory handle is opened
    let dir: Dir;
    try {
      dir = openDirectoryBeneath(state.root, state.path);
    } catch (error) {
      return fsErr(error);
    }
    const stream = new DirectoryEntryStream(dir);
    return state.ledger.track(stream, 'call', () => stream.close());
  }
  sync(): void {}
  createDirectoryAt(_path: string): void {
    readOnly();
  }
  stat(): WasiFs.DescriptorStat {
    const state = stateOf(this);
    try {
      return toStat(state.fd === undefined ? lstatSync(state.path) : fstatSync(state.fd));
    } catch (error) {
      return fsErr(error);
    }
  }
  statAt(_pathFlags: WasiFs.PathFlags, path: string): WasiFs.DescriptorStat {
    const real = resolveAt(stateOf(this), path);
    try {
      // lstat: what the resolved path names now, never followed out through a symlink swapped in since.
      return toStat(lstatSync(real));
    } catch (error) {
      return fsErr(error);
    }
  }
  setTimesAt(_pathFlags: WasiFs.PathFlags, _path: string, _atime: WasiFs.NewTimestamp, _mtime: WasiFs.NewTimestamp): void {
    readOnly();
  }
  linkAt(_oldPathFlags: WasiFs.PathFlags, _oldPath: string, _newDescriptor: WasiFs.Descriptor, _newPath: string): void {
    readOnly();
  }
  openAt(_pathFlags: WasiFs.PathFlags, path: string, openFlags: WasiFs.OpenFlags, flags: WasiFs.DescriptorFlags): WasiFs.Descriptor {
    const dir = stateOf(this);
    if (flags.write === true || flags.mutateDirectory === true || openFlags.create === true || openFlags.truncate === true || openFlags.exclusive === true) {
      return readOnly();
    }
    const real = resolveAt(dir, path);
    dir.ledger.ensureRoom(); // before a host file descriptor is opened
    let opened: Opened;
    try {
      // Opened first, then checked through the descriptor: never a FIFO, a device or a path outside.
      opened = openBeneath(dir.root, real);
    } catch (error) {
      return fsErr(error);
    }
    if (opened.stats.isDirectory()) {
      // Directories are used by their checked path (each use resolves and checks again).
      closeSync(opened.fd);
      return createDescriptor({ root: dir.root, path: opened.path, kind: 'directory', fd: undefined, files: dir.files, ledger: dir.ledger }, 'call');
    }
    if (openFlags.directory === true) {
      closeSync(opened.fd);
      return wasiErr<ErrorCode>('not-directory');
    }
    const fd = dir.files.adopt(opened.fd);
    return createDescriptor({ root: dir.root, path: opened.path, kind: 'regular-file', fd, files: dir.files, ledger: dir.ledger }, 'call');
  }
  readlinkAt(_path: string): string {
    // A link's target names host paths; the guest has no use for them.
    return wasiErr<ErrorCode>('not-permitted');
  }
  removeDirectoryAt(_path: string): void {
    readOnly();
  }
  renameAt(_oldPath: string, _newDescriptor: WasiFs.Descriptor, _newPath: string): void {
    readOnly();
  }
  symlinkAt(_oldPath: string, _newPath: string): void {
    readOnly();
  }
  unlinkFileAt(_path: string): void {
    readOnly();
  }
  isSameObject(other: WasiFs.Descriptor): boolean {
    return stateOf(this).path === stateOf(other).path;
  }
  metadataHash(): WasiFs.MetadataHashValue {
    const state = stateOf(this);
    return hashOf(state.fd === undefined ? lstatSync(state.path) : fstatSync(state.fd));
  }
  metadataHashAt(_pathFlags: WasiFs.PathFlags, path: string): WasiFs.MetadataHashValue {
    return hashOf(lstatSync(resolveAt(stateOf(this), path)));
  }
  [Symbol.dispose](): void {
    released(this);
    const state = states.get(this);
    if (state !== undefined) closeFile(state);
  }
}

function hashOf(stats: Stats): WasiFs.MetadataHashValue {
  return { lower: BigInt(stats.ino), upper: BigInt(stats.dev) };
}

function closeFile(state: DescriptorState): void {
  if (state.fd === undefined) return;
  state.files.close(state.fd);
  state.fd = undefined;
}

/** A descriptor for `state`, counted in its ledger (closing it releases its file descriptor). */
function createDescriptor(state: DescriptorState, scope: ResourceScope): Descriptor {
  const descriptor = new Descriptor();
  states.set(descriptor, state);
  return state.ledger.track(descriptor, scope, () => closeFile(state));
}

/**
 * `wasi:filesystem/types.directory-entry-stream` over an open directory, read one entry per call (the
 * system fetches a few dozen at a time): a directory of millions of entries costs no call more than
 * one batch. Its host handle is closed when the guest drops it, or when the call ends.
 */
class DirectoryEntryStream {
  #dir: Dir | undefined;
  // Optional only because the WIT's resource classes have zero-argument constructors.
  constructor(dir?: Dir) {
    this.#dir = dir;
  }
  readDirectoryEntry(): WasiFs.DirectoryEntry | undefined {
    let entry: Dirent | null | undefined;
    try {
      entry = this.#dir?.readSync();
    } catch (error) {
      return fsErr(error);
    }
    if (entry === null || entry === undefined) return undefined;
    return { type: typeOf(entry), name: entry.name };
  }
  /** Release the host's directory handle (idempotent). */
  close(): void {
    const dir = this.#dir;
    this.#dir = undefined;
    try {
      dir?.closeSync();
    } catch {
      // Already closed by the system: nothing held.
    }
  }
  [Symbol.dispose](): void {
    released(this);
    this.close();
  }
}

/** A read-only directory grant: guest path → real host directory (resolved and checked by the host). */
export type ReadOnlyDir = readonly [guestPath: string, hostDir: string];

/** `wasi:filesystem` over the granted directories (none by default). */
export function createFilesystem(dirs: readonly ReadOnlyDir[], files: OpenFiles, ledger: ResourceLedger) {
  const types = {
    Descriptor,
    DirectoryEntryStream,
    filesystemErrorCode: () => undefined,
  } satisfies typeof WasiFs;
  const preopens = {
    // Fresh descriptors each time, the instance's own (guests fetch them once and keep them).
    getDirectories: (): Array<[WasiFs.Descriptor, string]> =>
      dirs.map(([guestPath, hostDir]) => {
        const root = realpathSync(hostDir);
        return [createDescriptor({ root, path: root, kind: 'directory', fd: undefined, files, ledger }, 'instance'), guestPath];
      }),
  } satisfies typeof WasiPreopens;
  return { types, preopens };
}
