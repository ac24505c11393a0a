/**
 * Builds the Rust guests (`guest-examples/rust/`) into components under
 * `guest-examples/rust/build/<flavour>/`: `npx tsx scripts/build-guests.ts rust`.
 *
 * Every guest is one crate root plus the canonical-ABI glue (`glue/basis_hook.rs`), compiled by plain
 * `rustc` (no cargo: no crates, no network) in two flavours from the same source:
 * - `std`: `wasm32-wasi` cdylib linked with wasi-libc's `crt1-reactor.o`, so libc's startup runs once
 *   (`_initialize`, which the component calls at instantiation) instead of around every call; made a
 *   component with the preview1 reactor adapter (dropped again when the module imports no WASI).
 * - `nostd`: `wasm32-unknown-unknown` cdylib with `--cfg basis_no_std`: no allocator but the glue's
 *   arena, no WASI; a few KiB.
 *
 * Debian's rustc 1.63 (`/usr/bin/rustc`, packages `rustc` and `libstd-rust-dev-wasm32`) is used; the
 * rustup toolchain has no wasm targets. `RUSTC` overrides the compiler. Without the toolchain the
 * builder copies the committed prebuilt components from `guest-examples/rust/prebuilt/` and warns, so
 * `npm test` works anywhere; with `BASIS_HOOKS_REQUIRE_TOOLCHAINS=1` (CI) a missing toolchain is an
 * error. `npx tsx scripts/guests/rust.ts --update-prebuilt` rebuilds and refreshes the prebuilt copies
 * and their manifest (the source hash each copy was built from).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, WIT_PATH, embedWorld, newComponent } from './jco.js';
import { inputsHash, isFresh, writeStamp } from './stamp.js';
import type { GuestBuildContext, GuestBuilder } from './types.js';
import { COMPILED_GUEST_BEHAVIOURS } from '../../test/conformance/behaviours.js';
import { copyPrebuilt, jcoVersion, manifestPath, updatePrebuilt } from './prebuilt.js';

const run = promisify(execFile);

/** The Debian packages that provide rustc and the wasm32 standard libraries. */
export const RUST_PACKAGES = ['rustc', 'libstd-rust-dev-wasm32'] as const;

/** Debian's rustc, called by path: rustup's `rustc` comes first on PATH and has no wasm targets. */
const RUSTC = process.env['RUSTC'] ?? '/usr/bin/rustc';

export type RustFlavour = 'std' | 'nostd';
export const RUST_FLAVOURS: readonly RustFlavour[] = ['std', 'nostd'];

const TARGET: Record<RustFlavour, string> = { std: 'wasm32-wasi', nostd: 'wasm32-unknown-unknown' };

/**
 * Flags of every Rust guest. Fat LTO lets the optimiser see that the panic handler ignores its
 * message, which removes core's formatting code (a no_std guest goes from ~18 KiB to ~2–4 KiB);
 * `strip=symbols` drops the name section.
 */
export const RUST_FLAGS = ['--edition', '2021', '--crate-type', 'cdylib', '-C', 'opt-level=s', '-C', 'panic=abort', '-C', 'lto=fat', '-C', 'codegen-units=1', '-C', 'strip=symbols'] as const;

/** Conformance behaviours with a Rust guest (`silent` is not expressible: a component always returns), plus `guest-error` (err). */
export const RUST_CONFORMANCE_BEHAVIOURS = COMPILED_GUEST_BEHAVIOURS;

/** One Rust guest in one flavour. */
export interface RustGuest {
  readonly flavour: RustFlavour;
  /** Output path without `.wasm`, relative to `build/<flavour>/`. */
  readonly out: string;
  /** Crate root, relative to `guest-examples/rust/`. */
  readonly source: string;
  /** Other files the crate includes (`#[path]` modules), relative to `guest-examples/rust/`. */
  readonly includes: readonly string[];
  /** `--cfg` values besides the flavour's. */
  readonly cfgs: readonly string[];
}

export const RUST_DIR = join(ROOT, 'guest-examples/rust');
export const RUST_BUILD_DIR = join(RUST_DIR, 'build');
export const RUST_PREBUILT_DIR = join(RUST_DIR, 'prebuilt');
export const PREBUILT_MANIFEST = manifestPath(RUST_PREBUILT_DIR);
export type { PrebuiltManifest } from './prebuilt.js';
const GLUE = 'glue/basis_hook.rs';

export const RUST_GUESTS: readonly RustGuest[] = RUST_FLAVOURS.flatMap((flavour): RustGuest[] => [
  { flavour, out: 'guard', source: 'hooks/guard.rs', includes: [GLUE, 'hooks/scan.rs'], cfgs: [] },
  { flavour, out: 'redact', source: 'hooks/redact.rs', includes: [GLUE, 'hooks/scan.rs'], cfgs: [] },
  ...RUST_CONFORMANCE_BEHAVIOURS.map((b) => ({
    flavour,
    out: `conformance/${b}`,
    source: 'conformance/conformance.rs',
    includes: [GLUE],
    cfgs: [`behaviour="${b}"`],
  })),
]);

/** `std/guard`: where a guest lands under build/ and prebuilt/, without `.wasm`. */
export function guestKey(guest: RustGuest): string {
  return `${guest.flavour}/${guest.out}`;
}

/** Absolute path of a built guest component. */
export function rustGuestPath(flavour: RustFlavour, out: string): string {
  return join(RUST_BUILD_DIR, flavour, `${out}.wasm`);
}

function cfgsOf(guest: RustGuest): string[] {
  return guest.flavour === 'nostd' ? ['basis_no_std', ...guest.cfgs] : [...guest.cfgs];
}

/**
 * Hash of what a guest is made from — sources, glue, WIT, flags and cfgs, but not the compiler
 * version — so the prebuilt manifest can tell a stale prebuilt copy from a current one on machines
 * without rustc.
 */
export async function sourceHash(guest: RustGuest): Promise<string> {
  const hash = createHash('sha256');
  // Paths relative to the repository, so the hash is the same in every checkout.
  for (const file of [join(RUST_DIR, guest.source), ...guest.includes.map((i) => join(RUST_DIR, i)), WIT_PATH]) {
    hash.update(relative(ROOT, file));
    hash.update(await readFile(file));
  }
  hash.update(TARGET[guest.flavour]);
  hash.update(RUST_FLAGS.join(' '));
  hash.update(cfgsOf(guest).join(' '));
  return hash.digest('hex');
}

/** Thrown when rustc or its wasm32 libraries are missing; names the packages to install. */
export class RustToolchainMissingError extends Error {
  override readonly name = 'RustToolchainMissingError';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`Rust guests need Debian's rustc with the wasm32 standard libraries (${detail}). Install them with: apt-get install -y ${RUST_PACKAGES.join(' ')}`, options);
  }
}

/** What a build needs from the toolchain. */
interface Toolchain {
  /** `rustc 1.63.0`, for stamps and the prebuilt manifest. */
  readonly version: string;
  /** wasi-libc's reactor startup object. */
  readonly crt1Reactor: string;
}

/** rustc's version line, after checking that both wasm32 targets' libraries and crt1-reactor.o exist. */
async function checkToolchain(): Promise<Toolchain> {
  let version: string;
  let sysroot: string;
  try {
    version = (await run(RUSTC, ['--version'])).stdout.trim();
    sysroot = (await run(RUSTC, ['--print', 'sysroot'])).stdout.trim();
  } catch (error) {
    throw new RustToolchainMissingError(`\`${RUSTC}\` not found`, { cause: error });
  }
  for (const target of Object.values(TARGET)) {
    const lib = join(sysroot, 'lib/rustlib', target, 'lib');
    const files = existsSync(lib) ? await readdir(lib) : [];
    if (!files.some((f) => f.startsWith('libcore-') && f.endsWith('.rlib'))) {
      throw new RustToolchainMissingError(`${version} has no standard library for ${target} in ${lib}`);
    }
  }
  const crt1Reactor = join(sysroot, 'lib/rustlib/wasm32-wasi/lib/self-contained/crt1-reactor.o');
  if (!existsSync(crt1Reactor)) throw new RustToolchainMissingError(`${version} has no ${crt1Reactor}`);
  return { version, crt1Reactor };
}

async function compile(guest: RustGuest, toolchain: Toolchain, context: GuestBuildContext): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'basis-hooks-rust-'));
  try {
    const core = join(dir, 'core.wasm');
    const args = [
      ...RUST_FLAGS,
      '--target',
      TARGET[guest.flavour],
      ...(guest.flavour === 'std' ? ['-C', `link-arg=${toolchain.crt1Reactor}`] : []),
      ...cfgsOf(guest).flatMap((c) => ['--cfg', c]),
      // Paths inside the module (panic locations) read the same in every checkout.
      `--remap-path-prefix=${ROOT}=`,
      '-o',
      core,
      join(RUST_DIR, guest.source),
    ];
    try {
      const { stderr } = await run(RUSTC, args);
      if (stderr.trim() !== '') context.log(`${guestKey(guest)}: ${stderr.trim()}`);
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new Error(`rustc failed for ${guestKey(guest)}:\n${stderr}`, { cause: error });
    }
    return new Uint8Array(await readFile(core));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function buildOne(guest: RustGuest, context: GuestBuildContext, toolchain: Toolchain, jcoVersion: string): Promise<void> {
  const output = rustGuestPath(guest.flavour, guest.out);
  const hash = await inputsHash([fileURLToPath(import.meta.url)], [await sourceHash(guest), toolchain.version, jcoVersion]);
  if (!context.force && (await isFresh(output, hash))) return;
  const started = Date.now();
  const core = await compile(guest, toolchain, context);
  // wit-component drops the adapter again when the module imports no WASI.
  const component = await newComponent(await embedWorld(core), { wasiReactor: guest.flavour === 'std' });
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, component);
  await writeStamp(output, hash);
  context.log(`built ${guestKey(guest)}.wasm (${component.length} bytes, core ${core.length}, ${Date.now() - started} ms)`);
}

/** Run `task` over `items`, `limit` at a time (rustc is single-threaded with one codegen unit). */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function buildAll(context: GuestBuildContext, options: { updatePrebuilt: boolean }): Promise<void> {
  let toolchain: Toolchain;
  try {
    toolchain = await checkToolchain();
  } catch (error) {
    const required = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1' || options.updatePrebuilt;
    if (required || !(error instanceof RustToolchainMissingError) || !existsSync(RUST_PREBUILT_DIR)) throw error;
    context.log(`warning: ${error.message}`);
    context.log('warning: using the committed prebuilt Rust components instead of building from source');
    await copyPrebuilt(RUST_PREBUILT_DIR, RUST_BUILD_DIR, 'Rust', context);
    return;
  }
  const jco = await jcoVersion(context.root);
  await pool(RUST_GUESTS, 2, (guest) => buildOne(guest, context, toolchain, jco));
  if (options.updatePrebuilt) {
    const entries = await Promise.all(RUST_GUESTS.map(async (guest) => ({ key: guestKey(guest), built: rustGuestPath(guest.flavour, guest.out), sourceHash: await sourceHash(guest) })));
    await updatePrebuilt(RUST_PREBUILT_DIR, toolchain.version, entries, context);
  }
}

const builder: GuestBuilder = {
  name: 'rust',
  build: (context) => buildAll(context, { updatePrebuilt: false }),
};

export default builder;

// `npx tsx scripts/guests/rust.ts [--force] [--update-prebuilt]`
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = new Set(process.argv.slice(2));
  await buildAll(
    { root: ROOT, force: args.has('--force'), log: (message) => process.stderr.write(`[rust] ${message}\n`) },
    { updatePrebuilt: args.has('--update-prebuilt') },
  );
}
