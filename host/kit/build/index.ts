import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { ComponentInfo } from '../../transports/component/loader.js';
import { outputPath, readManifest, type HookManifest } from '../manifest.js';
import { buildAssemblyScriptCore } from './assemblyscript.js';
import { buildCCore } from './c.js';
import { componentFromCore } from './jco.js';
import { componentizeJs } from './js.js';
import { Steps, type BuildListener, type StepTiming } from './progress.js';
import { buildRustCore } from './rust.js';
import { compileTypeScript } from './ts.js';
import { verifyComponent } from './verify.js';

/** Options of {@link buildHookDir}. */
export interface BuildOptions {
  /** Where to write the component (default: the manifest's `out`, else `build/<name>.wasm` in the directory). */
  readonly out?: string;
  /** Told of each step as it starts (for progress output). */
  readonly onStep?: BuildListener;
}

/** What {@link buildHookDir} built. */
export interface BuildResult {
  readonly manifest: HookManifest;
  /** Absolute path of the component. */
  readonly out: string;
  readonly size: number;
  readonly sha256: string;
  /** What loading it found: handler, world version, imports, exports. */
  readonly info: ComponentInfo;
  /** Whether jco's preview1 adapter was added (the core module uses WASI: libc I/O and the like). */
  readonly wasi_adapter: boolean;
  readonly ms: number;
  readonly steps: readonly StepTiming[];
}

async function buildComponent(dir: string, manifest: HookManifest, steps: Steps): Promise<{ component: Uint8Array; wasiAdapter: boolean }> {
  const fromCore = (core: Uint8Array) =>
    steps.run(`make the component (embed basis:hook@1.0.0, jco new)`, () => componentFromCore(core));
  switch (manifest.lang) {
    case 'js':
      return { component: await componentizeJs(resolve(dir, manifest.source), manifest.engine, steps, manifest.source), wasiAdapter: false };
    case 'ts': {
      const emitted = await compileTypeScript(dir, manifest, steps);
      return { component: await componentizeJs(emitted, manifest.engine, steps, relative(dir, emitted)), wasiAdapter: false };
    }
    case 'c':
      return fromCore(await buildCCore(dir, manifest, steps));
    case 'rust':
      return fromCore(await buildRustCore(dir, manifest, steps));
    case 'assemblyscript':
      return fromCore(await buildAssemblyScriptCore(dir, manifest, steps));
  }
}

/**
 * Build the hook in `dir` (described by its `hook.json`) into a component and verify it: JavaScript
 * and TypeScript in-process with QuickJS or SpiderMonkey, C with clang, Rust with rustc,
 * AssemblyScript with asc; then the world is embedded, the component made, and finally it is loaded
 * the way the host loads it. Rejects with `ToolchainMissingError` (naming what to install) or
 * `KitError` (`manifest_invalid`, `build_failed`, `verify_failed`).
 *
 * @example
 * const built = await buildHookDir('hooks/no-rm', { onStep: (s) => console.error(s.step) });
 * console.log(built.out, built.size);
 */
export async function buildHookDir(dir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const root = resolve(dir);
  const manifest = await readManifest(root);
  const steps = new Steps(options.onStep);
  const built = await buildComponent(root, manifest, steps);
  const out = options.out === undefined ? resolve(root, outputPath(manifest)) : resolve(options.out);
  await steps.run(`write ${relative(process.cwd(), out) || out}`, async () => {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, built.component);
  });
  const info = await steps.run('verify: load it as the host does (world, imports, instantiate)', () => verifyComponent(out));
  return {
    manifest,
    out,
    size: built.component.byteLength,
    sha256: createHash('sha256').update(built.component).digest('hex'),
    info,
    wasi_adapter: built.wasiAdapter,
    ms: steps.elapsed(),
    steps: steps.timings,
  };
}
