/**
 * Builds the repository's guests (scripts/guests/catalog.ts) with the authoring kit, skipping every
 * guest whose stamp says its inputs have not changed. The C and Rust groups fall back to the committed
 * prebuilt copies when their Debian toolchain is missing — unless `BASIS_HOOKS_REQUIRE_TOOLCHAINS=1`
 * (CI), where a missing toolchain is an error — and `--update-prebuilt` refreshes those copies.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { buildHook } from '../../host/kit/build/index.js';
import { ASC_FLAGS } from '../../host/kit/build/assemblyscript.js';
import { C_FLAGS, C_LINK_FLAGS } from '../../host/kit/build/c.js';
import { RUST_FLAGS, RUST_TARGET } from '../../host/kit/build/rust.js';
import { isToolchainMissingError } from '../../host/kit/errors/index.js';
import type { HookManifest } from '../../host/kit/manifest.js';
import { CLANG_ENV, RUSTC_ENV } from '../../host/kit/toolchains.js';
import { GUESTS, PREBUILT_DIR, ROOT, buildDir, prebuiltKey, type Guest, type GuestGroup } from './catalog.js';
import { buildWatFixtures } from './fixtures.js';
import { copyPrebuilt, readPrebuiltManifest, updatePrebuilt, type PrebuiltManifest } from './prebuilt.js';
import { isFresh, writeStamp } from './stamp.js';

const run = promisify(execFile);

/** How a group build goes. */
export interface BuildContext {
  /** Rebuild even when the stamps say the outputs are up to date. */
  readonly force: boolean;
  /** Replace the group's prebuilt copies with this build's outputs (C, Rust). */
  readonly updatePrebuilt?: boolean;
  /** Progress for people (stderr). */
  log(message: string): void;
}

/** The files a manifest names, relative to its directory. */
function manifestFiles(manifest: HookManifest): string[] {
  switch (manifest.lang) {
    case 'c':
      return [...manifest.sources];
    case 'ts':
      return [manifest.source, manifest.tsconfig];
    case 'wat':
      return [manifest.source, ...(manifest.prelude === undefined ? [] : [manifest.prelude]), ...(manifest.world === undefined ? [] : [manifest.world.wit])];
    default:
      return [manifest.source];
  }
}

/** The flags the kit builds a language with: a change to them changes every output. */
function flags(manifest: HookManifest): string {
  switch (manifest.lang) {
    case 'c':
      return `${C_FLAGS.join(' ')} | ${C_LINK_FLAGS.join(' ')}`;
    case 'rust':
      return `${RUST_TARGET[manifest.flavour]} ${RUST_FLAGS.join(' ')}`;
    case 'assemblyscript':
      return ASC_FLAGS.join(' ');
    default:
      return '';
  }
}

/**
 * Hash of what a guest is made from — its manifest, the files it reads, the WIT and the kit's flags for
 * its language — but not the compiler or the kit's code: the prebuilt manifests record it, so a test
 * can tell a stale prebuilt copy from a current one on any machine, compiler or not.
 */
export function sourceHash(guest: Guest): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(guest.manifest));
  // Paths relative to the repository, so the hash is the same in every checkout.
  for (const file of [...new Set([...manifestFiles(guest.manifest), ...guest.inputs])].sort()) {
    const path = join(guest.dir, file);
    hash.update(relative(ROOT, path));
    hash.update(readFileSync(path));
  }
  hash.update(readFileSync(join(ROOT, 'wit/hook.wit')));
  hash.update(flags(guest.manifest));
  return hash.digest('hex');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

let kitHash: string | undefined;

/** Hash of the kit's build code and everything it bundles: a change rebuilds every guest. */
function kitCodeHash(): string {
  if (kitHash === undefined) {
    const hash = createHash('sha256');
    for (const file of [...filesUnder(join(ROOT, 'host/kit/build')), ...filesUnder(join(ROOT, 'guest-examples/js/glue')), ...filesUnder(join(ROOT, 'wit')), ...filesUnder(join(ROOT, 'adapters'))]) {
      hash.update(relative(ROOT, file));
      hash.update(readFileSync(file));
    }
    kitHash = hash.digest('hex');
  }
  return kitHash;
}

function npmVersion(name: string): string {
  try {
    return `${name} ${(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;
  } catch {
    return `${name} missing`;
  }
}

async function commandVersion(file: string): Promise<string> {
  try {
    return (await run(file, ['--version'])).stdout.split('\n')[0]?.trim() ?? file;
  } catch {
    return `${file} missing`;
  }
}

/** The versions of the tools a group is built with (the compiler's, or the npm packages'). */
async function toolVersions(group: GuestGroup): Promise<string[]> {
  const transpile = npmVersion('@bytecodealliance/jco-transpile');
  switch (group) {
    case 'c':
      return [transpile, await commandVersion(process.env[CLANG_ENV] || 'clang')];
    case 'rust':
      return [transpile, await commandVersion(process.env[RUSTC_ENV] || '/usr/bin/rustc')];
    case 'assemblyscript':
      return [transpile, npmVersion('assemblyscript')];
    case 'js':
      return [transpile, npmVersion('componentize-qjs'), npmVersion('@bytecodealliance/componentize-js')];
    case 'ts':
      return [transpile, npmVersion('componentize-qjs'), npmVersion('@bytecodealliance/componentize-js'), npmVersion('typescript')];
    case 'wat':
      return [transpile];
  }
}

/** What a guest's stamp records: its sources, the kit, the tools. */
function stampHash(guest: Guest, versions: readonly string[]): string {
  return createHash('sha256').update(sourceHash(guest)).update(kitCodeHash()).update(versions.join('\n')).digest('hex');
}

/** The kit and tools a group's components are built with: equal means equal bytes from equal sources. */
function builtWith(versions: readonly string[]): string {
  return createHash('sha256').update(kitCodeHash()).update(versions.join('\n')).digest('hex');
}

/**
 * What a group's prebuilt manifest must record as `built_with` for a checkout on this machine to copy
 * its prebuilt components instead of compiling them, and the compiler it was computed with.
 */
export async function expectedBuiltWith(group: 'c' | 'rust'): Promise<{ readonly builtWith: string; readonly compiler: string }> {
  const versions = await toolVersions(group);
  return { builtWith: builtWith(versions), compiler: versions.at(-1) ?? '' };
}

/**
 * Take a guest from the committed prebuilt copies instead of compiling it, when they were built with
 * this very compiler and kit from these very sources: the same bytes, without minutes of rustc.
 * True when it did.
 */
async function reusePrebuilt(guest: Guest, manifest: PrebuiltManifest | undefined, prebuiltDir: string, versions: readonly string[]): Promise<boolean> {
  if (manifest === undefined || manifest.built_with !== builtWith(versions)) return false;
  if (manifest.guests[prebuiltKey(guest)] !== sourceHash(guest)) return false;
  await mkdir(dirname(guest.out), { recursive: true });
  await cp(join(prebuiltDir, `${prebuiltKey(guest)}.wasm`), guest.out);
  await writeStamp(guest.out, stampHash(guest, versions));
  return true;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Build one guest unless fresh; true when it was built. */
async function buildOne(guest: Guest, versions: readonly string[], context: BuildContext): Promise<boolean> {
  const hash = stampHash(guest, versions);
  if (!context.force && (await isFresh(guest.out, hash))) return false;
  // The repository's tests load every guest themselves (and some are built not to load).
  const built = await buildHook({ dir: guest.dir, manifest: guest.manifest }, { out: guest.out, verify: false });
  await writeStamp(guest.out, hash);
  context.log(`built ${relative(guest.dir, guest.out)} (${size(built.size)}${built.wasi_adapter ? ', WASI adapter' : ''}) in ${(built.ms / 1000).toFixed(1)} s`);
  return true;
}

/** Run `task` over `items`, at most `limit` at a time. */
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

/**
 * How many builds of a group may run at once. SpiderMonkey builds change the working directory
 * (componentize-js needs it), so JavaScript and TypeScript groups build one at a time; the compilers
 * of the others run as child processes or in short synchronous bursts.
 */
function concurrency(group: GuestGroup): number {
  return group === 'js' || group === 'ts' ? 1 : 2;
}

/** Build `guests` (all of one group), falling back to prebuilt copies where the group allows it. */
export async function buildGuests(group: GuestGroup, guests: readonly Guest[], context: BuildContext): Promise<void> {
  if (guests.length === 0) return;
  const versions = await toolVersions(group);
  const prebuilt = PREBUILT_DIR[group];
  const required = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1' || context.updatePrebuilt === true;
  let todo = guests;
  if (prebuilt !== undefined && !required && !context.force) {
    const manifest = await readPrebuiltManifest(prebuilt);
    const stale: Guest[] = [];
    let reused = 0;
    for (const guest of guests) {
      if (await isFresh(guest.out, stampHash(guest, versions))) continue;
      if (await reusePrebuilt(guest, manifest, prebuilt, versions)) reused++;
      else stale.push(guest);
    }
    if (reused > 0) context.log(`reused ${reused} prebuilt component${reused === 1 ? '' : 's'}: built with this compiler and kit from these sources (--force compiles them)`);
    todo = stale;
  }
  const [first, ...rest] = todo;
  try {
    // The first on its own: a missing toolchain shows here, before anything runs in parallel.
    if (first !== undefined) await buildOne(first, versions, context);
    await pool(rest, concurrency(group), async (guest) => {
      await buildOne(guest, versions, context);
    });
  } catch (error) {
    if (!isToolchainMissingError(error) || prebuilt === undefined || required || !existsSync(prebuilt)) throw error;
    context.log(`warning: ${error.message}`);
    context.log(`warning: using the committed prebuilt ${group} components instead of building from source`);
    await copyPrebuilt(prebuilt, buildDir(group), context.log);
    return;
  }
  if (context.updatePrebuilt === true && prebuilt !== undefined) {
    const compiler = versions.at(-1) ?? 'unknown';
    await updatePrebuilt(prebuilt, compiler, builtWith(versions), guests.map((g) => ({ key: prebuiltKey(g), built: g.out, sourceHash: sourceHash(g) })), context.log);
  }
}

/** Build every guest of a group (and, for WAT, the fixtures made from WAT guests). */
export async function buildGroup(group: GuestGroup, context: BuildContext): Promise<void> {
  if (context.updatePrebuilt === true && PREBUILT_DIR[group] === undefined) throw new Error(`${group} has no prebuilt copies to update`);
  await buildGuests(group, GUESTS[group], context);
  if (group === 'wat') await buildWatFixtures(context);
}
