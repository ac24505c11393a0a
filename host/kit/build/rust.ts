import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { RustFlavour } from '../languages.js';
import type { HookManifest } from '../manifest.js';
import { RUST_TOOLCHAIN, RUSTC_ENV } from '../toolchains.js';
import { runTool, ToolNotFound, type ToolRun } from './exec.js';
import type { Steps } from './progress.js';

/**
 * Debian's rustc, by path: rustup's `rustc`, usually first on PATH, has no wasm targets and cannot
 * download them offline.
 */
const DEFAULT_RUSTC = '/usr/bin/rustc';

export const RUST_TARGET: Readonly<Record<RustFlavour, string>> = { std: 'wasm32-wasi', nostd: 'wasm32-unknown-unknown' };

/**
 * Fat LTO lets the optimiser see that the panic handler ignores its message, which removes core's
 * formatting code (a no_std guest goes from ~18 KiB to ~2–4 KiB); `strip=symbols` drops names.
 */
export const RUST_FLAGS = ['--edition', '2021', '--crate-type', 'cdylib', '-C', 'opt-level=s', '-C', 'panic=abort', '-C', 'lto=fat', '-C', 'codegen-units=1', '-C', 'strip=symbols'];

type RustManifest = Extract<HookManifest, { lang: 'rust' }>;

/** Every `--cfg` of a build: `basis_no_std` for the nostd flavour, then the manifest's own. */
export function rustCfgs(manifest: Pick<RustManifest, 'flavour' | 'cfg'>): string[] {
  return [...(manifest.flavour === 'nostd' ? ['basis_no_std'] : []), ...(manifest.cfg ?? [])];
}

function rustc(): string {
  const fromEnv = process.env[RUSTC_ENV];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_RUSTC;
}

function missing(detail: string, cause?: unknown): ToolchainMissingError {
  return new ToolchainMissingError('Rust', detail, RUST_TOOLCHAIN, cause === undefined ? {} : { cause });
}

async function run(args: readonly string[]): Promise<ToolRun> {
  try {
    return await runTool(rustc(), args);
  } catch (error) {
    if (error instanceof ToolNotFound) throw missing(`\`${rustc()}\` was not found`, error);
    throw error;
  }
}

interface Toolchain {
  readonly version: string;
  /** wasi-libc's reactor startup object (std only). */
  readonly crt1Reactor: string | undefined;
}

/** rustc's version, after checking it has the flavour's standard library (and, for std, crt1-reactor.o). */
async function checkToolchain(flavour: RustFlavour): Promise<Toolchain> {
  const versionRun = await run(['--version']);
  const sysrootRun = await run(['--print', 'sysroot']);
  if (!versionRun.ok || !sysrootRun.ok) throw missing(`\`${rustc()}\` does not run (${(versionRun.stderr || sysrootRun.stderr).trim()})`);
  const version = versionRun.stdout.trim();
  const sysroot = sysrootRun.stdout.trim();
  const target = RUST_TARGET[flavour];
  const lib = join(sysroot, 'lib/rustlib', target, 'lib');
  const files = existsSync(lib) ? await readdir(lib) : [];
  if (!files.some((f) => f.startsWith('libcore-') && f.endsWith('.rlib'))) {
    throw missing(`${version} (${rustc()}) has no standard library for ${target} in ${lib}`);
  }
  if (flavour === 'nostd') return { version, crt1Reactor: undefined };
  const crt1Reactor = join(sysroot, 'lib/rustlib/wasm32-wasi/lib/self-contained/crt1-reactor.o');
  if (!existsSync(crt1Reactor)) throw missing(`${version} (${rustc()}) has no ${crt1Reactor}`);
  return { version, crt1Reactor };
}

/**
 * Build a Rust hook's core module with plain rustc (no cargo: no crates, no network): `std` for
 * wasm32-wasi linked with `crt1-reactor.o` (libc's startup runs once, at instantiation, instead of
 * around every call), `nostd` for wasm32-unknown-unknown with `--cfg basis_no_std`.
 */
export async function buildRustCore(dir: string, manifest: RustManifest, steps: Steps): Promise<Uint8Array> {
  const toolchain = await steps.run(`check ${rustc()} (${RUST_TARGET[manifest.flavour]})`, () => checkToolchain(manifest.flavour));
  const work = await mkdtemp(join(tmpdir(), 'basis-hooks-rust-'));
  try {
    return await steps.run(`compile ${manifest.source} (${toolchain.version}, ${manifest.flavour})`, async () => {
      const core = join(work, 'core.wasm');
      const result = await run([
        ...RUST_FLAGS,
        '--target',
        RUST_TARGET[manifest.flavour],
        ...(toolchain.crt1Reactor === undefined ? [] : ['-C', `link-arg=${toolchain.crt1Reactor}`]),
        ...rustCfgs(manifest).flatMap((c) => ['--cfg', c]),
        // Paths inside the module (panic locations) do not depend on where the hook was built.
        `--remap-path-prefix=${dir}=`,
        '-o',
        core,
        join(dir, manifest.source),
      ]);
      if (!result.ok) throw new KitError('build_failed', `rustc ${manifest.source} failed:\n${result.stderr.trim()}`);
      return new Uint8Array(await readFile(core));
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
