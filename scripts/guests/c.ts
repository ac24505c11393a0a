/**
 * Builds the C guests (`guest-examples/c/`) into components under `guest-examples/c/build/`:
 * `npx tsx scripts/build-guests.ts c`.
 *
 * Each guest is one source plus the canonical-ABI glue (`glue/basis_hook.c`), compiled by Debian's clang
 * for `wasm32-wasi` as a reactor, then embedded with the `basis:hook` world and wrapped by `jco new`. The
 * preview1 reactor adapter is only added when the core module imports WASI (the examples import
 * nothing, so their components import nothing either).
 *
 * Without clang (the toolchain is not on npm) the builder copies the committed prebuilt components
 * from `guest-examples/c/prebuilt/` and warns, so `npm test` works anywhere; with
 * `BASIS_HOOKS_REQUIRE_TOOLCHAINS=1` (CI) a missing toolchain is an error instead. Run directly,
 * `npx tsx scripts/guests/c.ts --update-prebuilt` rebuilds and refreshes the prebuilt copies and their
 * manifest (`prebuilt/manifest.json`, which records the source hash each copy was built from).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

/** The Debian packages that provide the C toolchain for wasm32-wasi. */
export const C_PACKAGES = ['clang', 'lld', 'wasi-libc', 'libclang-rt-dev-wasm32'] as const;

/** The compiler; `CLANG` overrides it (e.g. `CLANG=clang-14`). */
const CLANG = process.env['CLANG'] ?? 'clang';

/** Compile flags of every C source (guest and glue). */
export const C_FLAGS = ['--target=wasm32-wasi', '-O2', '-std=c11', '-Wall', '-Wextra'] as const;

/**
 * Link flags. Deliberately no `-O`: with one, clang runs any `wasm-opt` it finds on PATH after linking
 * (npm puts binaryen's on it), which made the output depend on PATH and cost ~2 s per guest.
 * `--stack-first` puts the 64 KiB shadow stack below the data, so an overflow traps instead of silently
 * overwriting globals. `--strip-all` drops the name section: the components stay a few KiB.
 */
export const C_LINK_FLAGS = ['--target=wasm32-wasi', '-mexec-model=reactor', '-Wl,--stack-first', '-Wl,--strip-all'] as const;

/** Conformance behaviours with a C guest (`silent` is not expressible: a component always returns), plus `guest-error` (err). */
export const C_CONFORMANCE_BEHAVIOURS = COMPILED_GUEST_BEHAVIOURS;

/** One C guest: an output under build/ (and prebuilt/), its source and its defines. */
export interface CGuest {
  /** Output path without `.wasm`, relative to `build/`. */
  readonly out: string;
  /** Source file, relative to `guest-examples/c/`. */
  readonly source: string;
  readonly defines: readonly string[];
}

export const C_DIR = join(ROOT, 'guest-examples/c');
export const C_BUILD_DIR = join(C_DIR, 'build');
export const C_PREBUILT_DIR = join(C_DIR, 'prebuilt');
const GLUE = ['glue/basis_hook.h', 'glue/basis_hook.c'];

/** `modify-wrap` → `BEHAVIOUR_MODIFY_WRAP`. */
export function behaviourDefine(behaviour: string): string {
  return `BEHAVIOUR_${behaviour.toUpperCase().replaceAll('-', '_')}`;
}

export const C_GUESTS: readonly CGuest[] = [
  { out: 'guard', source: 'src/guard.c', defines: [] },
  { out: 'redact', source: 'src/redact.c', defines: [] },
  ...C_CONFORMANCE_BEHAVIOURS.map((b) => ({ out: `conformance/${b}`, source: 'src/conformance.c', defines: [behaviourDefine(b)] })),
];

/**
 * Hash of what a guest is made from — source, glue, WIT, flags and defines, but not the compiler
 * version — so the prebuilt manifest can tell a stale prebuilt copy from a current one on machines
 * without clang.
 */
export async function sourceHash(guest: CGuest): Promise<string> {
  const hash = createHash('sha256');
  // Paths relative to the repository, so the hash is the same in every checkout.
  for (const file of [join(C_DIR, guest.source), ...GLUE.map((g) => join(C_DIR, g)), WIT_PATH]) {
    hash.update(relative(ROOT, file));
    hash.update(await readFile(file));
  }
  hash.update(C_FLAGS.join(' '));
  hash.update(C_LINK_FLAGS.join(' '));
  hash.update(guest.defines.join(' '));
  return hash.digest('hex');
}

/** Thrown when the C toolchain is missing or broken; names the packages to install. */
export class CToolchainMissingError extends Error {
  override readonly name = 'CToolchainMissingError';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `C guests need clang for wasm32-wasi (${detail}). Install it with: apt-get install -y ${C_PACKAGES.join(' ')}`,
      options,
    );
  }
}

/** The compiler's version line, after checking it can link a wasm32-wasi reactor. */
async function checkToolchain(): Promise<string> {
  let version: string;
  try {
    version = (await run(CLANG, ['--version'])).stdout.split('\n')[0] ?? '';
  } catch (error) {
    throw new CToolchainMissingError(`\`${CLANG}\` not found`, { cause: error });
  }
  const dir = await mkdtemp(join(tmpdir(), 'basis-hooks-c-'));
  try {
    await writeFile(join(dir, 'probe.c'), '#include <string.h>\nint probe(const char *s) { return (int)strlen(s); }\n');
    await run(CLANG, [...C_FLAGS, '-c', '-o', join(dir, 'probe.o'), join(dir, 'probe.c')]);
    await run(CLANG, [...C_LINK_FLAGS, '-o', join(dir, 'probe.wasm'), join(dir, 'probe.o')]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new CToolchainMissingError(`${version} cannot build for wasm32-wasi: ${stderr.trim().split('\n')[0] ?? ''}`, { cause: error });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return version;
}

/** The piece of the WebAssembly JS API used here (lib ES2023 declares none of it; Node has it). */
const WasmModule = (
  globalThis as unknown as {
    WebAssembly: { Module: { new (bytes: Uint8Array): object; imports(module: object): Array<{ module: string; name: string }> } };
  }
).WebAssembly.Module;

/** Module names the core module imports from (to decide whether it needs the WASI adapter). */
function importModules(core: Uint8Array): Set<string> {
  return new Set(WasmModule.imports(new WasmModule(core)).map((i) => i.module));
}

/** Run clang; its warnings go to the log, its errors into the thrown message. */
async function clang(args: readonly string[], what: string, context: GuestBuildContext): Promise<void> {
  try {
    const { stderr } = await run(CLANG, [...args]);
    if (stderr.trim() !== '') context.log(`${what}: ${stderr.trim()}`);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`clang failed for ${what}:\n${stderr}`, { cause: error });
  }
}

/** Compiles and links C guests in a temporary directory; the glue is compiled once for all of them. */
class Compiler {
  private glue: Promise<string> | undefined;
  private constructor(private readonly dir: string, private readonly context: GuestBuildContext) {}

  static async create(context: GuestBuildContext): Promise<Compiler> {
    return new Compiler(await mkdtemp(join(tmpdir(), 'basis-hooks-c-')), context);
  }

  private object(source: string, name: string, defines: readonly string[]): Promise<string> {
    const out = join(this.dir, `${name}.o`);
    const args = [...C_FLAGS, `-I${join(C_DIR, 'glue')}`, ...defines.map((d) => `-D${d}`), '-c', '-o', out, join(C_DIR, source)];
    return clang(args, name, this.context).then(() => out);
  }

  /** The guest's core module. */
  async core(guest: CGuest): Promise<Uint8Array> {
    this.glue ??= this.object('glue/basis_hook.c', 'basis_hook', []);
    const name = guest.out.replaceAll('/', '_');
    const objects = [await this.object(guest.source, name, guest.defines), await this.glue];
    const out = join(this.dir, `${name}.wasm`);
    await clang([...C_LINK_FLAGS, '-o', out, ...objects], guest.out, this.context);
    return new Uint8Array(await readFile(out));
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function buildOne(guest: CGuest, context: GuestBuildContext, compiler: () => Promise<Compiler>, versions: readonly string[]): Promise<void> {
  const output = join(C_BUILD_DIR, `${guest.out}.wasm`);
  const hash = await inputsHash([fileURLToPath(import.meta.url)], [await sourceHash(guest), ...versions]);
  if (!context.force && (await isFresh(output, hash))) return;
  const core = await (await compiler()).core(guest);
  const wasiReactor = importModules(core).has('wasi_snapshot_preview1');
  const component = await newComponent(await embedWorld(core), { wasiReactor });
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, component);
  await writeStamp(output, hash);
  context.log(`built ${guest.out}.wasm (${component.length} bytes${wasiReactor ? ', WASI adapter' : ''})`);
}

export const PREBUILT_MANIFEST = manifestPath(C_PREBUILT_DIR);
export type { PrebuiltManifest } from './prebuilt.js';

async function buildAll(context: GuestBuildContext, options: { updatePrebuilt: boolean }): Promise<void> {
  let toolchain: string;
  try {
    toolchain = await checkToolchain();
  } catch (error) {
    const required = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1' || options.updatePrebuilt;
    if (required || !(error instanceof CToolchainMissingError) || !existsSync(C_PREBUILT_DIR)) throw error;
    context.log(`warning: ${error.message}`);
    context.log('warning: using the committed prebuilt C components instead of building from source');
    await copyPrebuilt(C_PREBUILT_DIR, C_BUILD_DIR, 'C', context);
    return;
  }
  const versions = [toolchain, await jcoVersion(context.root)];
  let compiler: Promise<Compiler> | undefined;
  try {
    for (const guest of C_GUESTS) await buildOne(guest, context, () => (compiler ??= Compiler.create(context)), versions);
  } finally {
    await (await compiler)?.dispose();
  }
  if (options.updatePrebuilt) {
    const entries = await Promise.all(C_GUESTS.map(async (guest) => ({ key: guest.out, built: join(C_BUILD_DIR, `${guest.out}.wasm`), sourceHash: await sourceHash(guest) })));
    await updatePrebuilt(C_PREBUILT_DIR, toolchain, entries, context);
  }
}

const builder: GuestBuilder = {
  name: 'c',
  build: (context) => buildAll(context, { updatePrebuilt: false }),
};

export default builder;

// `npx tsx scripts/guests/c.ts [--force] [--update-prebuilt]`
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = new Set(process.argv.slice(2));
  await buildAll(
    { root: ROOT, force: args.has('--force'), log: (message) => process.stderr.write(`[c] ${message}\n`) },
    { updatePrebuilt: args.has('--update-prebuilt') },
  );
}
