import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { ComponentInfo } from '../../transports/component/info.js';
import { outputPath, readManifest, type HookManifest } from '../manifest.js';
import { buildAssemblyScriptCore } from './assemblyscript.js';
import { buildCCore } from './c.js';
import { componentizeJs } from './js.js';
import { Steps, type BuildListener, type StepTiming } from './progress.js';
import { buildRustCore } from './rust.js';
import { compileTypeScript } from './ts.js';
import { verifyComponent } from './verify.js';
import { componentFromCore, requireWasmTools } from './wasm-tools.js';
import { buildWatCore } from './wat.js';
import { WASI_CLI_PACKAGES, witDir } from './wit-dir.js';

/** Options of {@link buildHookDir}. */
export interface BuildOptions {
  /** Where to write the component (default: the manifest's `out`, else `build/<name>.wasm` in the directory). */
  readonly out?: string;
  /** Told of each step as it starts (for progress output). */
  readonly onStep?: BuildListener;
  /**
   * Load the component the way the host will, after writing it (default true). Off only for components
   * built not to load (test fixtures of refused imports), or when the caller loads them itself.
   */
  readonly verify?: boolean;
}

/** What {@link buildHookDir} built. */
export interface BuildResult {
  readonly manifest: HookManifest;
  /** Absolute path of the component. */
  readonly out: string;
  readonly size: number;
  readonly sha256: string;
  /** What loading it found: handler, world version, imports, exports (absent when not verified). */
  readonly info?: ComponentInfo;
  /** Whether the WASI preview1 adapter was added (the core module uses WASI: libc I/O and the like). */
  readonly wasi_adapter: boolean;
  readonly ms: number;
  readonly steps: readonly StepTiming[];
}

/** A WAT hook's world override: its WIT file as the root of a directory whose deps are the package's. */
async function watWorld(dir: string, world: { readonly wit: string; readonly name: string }, core: Uint8Array) {
  const wit = await witDir({ 'world.wit': await readFile(join(dir, world.wit), 'utf8') }, [...WASI_CLI_PACKAGES, 'http']);
  try {
    return await componentFromCore(core, { witPath: wit.path, world: world.name });
  } finally {
    await wit.dispose();
  }
}

async function buildComponent(dir: string, manifest: HookManifest, steps: Steps): Promise<{ component: Uint8Array; wasiAdapter: boolean }> {
  const fromCore = (core: Uint8Array) => steps.run(`make the component (embed basis:hook@1.0.0, jco new)`, () => componentFromCore(core));
  switch (manifest.lang) {
    case 'js':
      return { component: await componentizeJs(dir, manifest.source, manifest.name, manifest.engine, steps), wasiAdapter: false };
    case 'ts': {
      const emitted = await compileTypeScript(dir, manifest, steps);
      return { component: await componentizeJs(dir, emitted, manifest.name, manifest.engine, steps), wasiAdapter: false };
    }
    case 'c':
      return fromCore(await buildCCore(dir, manifest, steps));
    case 'rust':
      return fromCore(await buildRustCore(dir, manifest, steps));
    case 'assemblyscript':
      return fromCore(await buildAssemblyScriptCore(dir, manifest, steps));
    case 'wat': {
      const core = await buildWatCore(dir, manifest, steps);
      const world = manifest.world;
      if (world === undefined) return fromCore(core);
      return steps.run(`make the component (embed ${world.name} from ${world.wit}, jco new)`, () => watWorld(dir, world, core));
    }
  }
}

/** What {@link buildHook} builds: a manifest (as `hook.json` holds it) and the directory its paths are relative to. */
export interface HookSpec {
  readonly dir: string;
  readonly manifest: HookManifest;
}

/**
 * Build a hook from a manifest given in memory (what {@link buildHookDir} does after reading
 * `hook.json`): the repository's own guest examples are built this way, by the same code as a user's.
 */
export async function buildHook(spec: HookSpec, options: BuildOptions = {}): Promise<BuildResult> {
  const root = resolve(spec.dir);
  const { manifest } = spec;
  // Every build but a JS/TS one left unverified needs jco's tools (an optional peer): say so first.
  const componentized = manifest.lang === 'js' || manifest.lang === 'ts';
  if (!componentized || options.verify !== false) requireWasmTools();
  const steps = new Steps(options.onStep);
  const built = await buildComponent(root, manifest, steps);
  const out = options.out === undefined ? resolve(root, outputPath(manifest)) : resolve(options.out);
  await steps.run(`write ${relative(process.cwd(), out) || out}`, async () => {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, built.component);
  });
  const info = options.verify === false ? undefined : await steps.run('verify: load it as the host does (world, imports, instantiate)', () => verifyComponent(out));
  return {
    manifest,
    out,
    size: built.component.byteLength,
    sha256: createHash('sha256').update(built.component).digest('hex'),
    ...(info === undefined ? {} : { info }),
    wasi_adapter: built.wasiAdapter,
    ms: steps.elapsed(),
    steps: steps.timings,
  };
}

/**
 * Build the hook in `dir` (described by its `hook.json`) into a component and verify it: JavaScript
 * and TypeScript in-process with QuickJS or SpiderMonkey (TypeScript type-checked by its `tsc`
 * first), C with clang, Rust with rustc, AssemblyScript with asc, WAT with jco's assembler; then the
 * world is embedded, the component made, and finally it is loaded the way the host loads it. Rejects
 * with `ToolchainMissingError` (naming what to install), `PackageMissingError` (jco-transpile, an
 * optional peer, naming its install command) or `KitError` (`manifest_invalid`,
 * `build_failed`, `verify_failed`).
 *
 * @example
 * const built = await buildHookDir('hooks/no-rm', { onStep: (s) => console.error(s.step) });
 * console.log(built.out, built.size);
 */
export async function buildHookDir(dir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const root = resolve(dir);
  return buildHook({ dir: root, manifest: await readManifest(root) }, options);
}
