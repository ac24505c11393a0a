import { join } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { HookManifest } from '../manifest.js';
import { ASSEMBLYSCRIPT_TOOLCHAIN } from '../toolchains.js';
import type { Steps } from './progress.js';

/**
 * asc flags of every build: `--use abort=` turns an abort (failed assertion, out of memory, index out
 * of range) into a trap instead of an import of `env.abort`, so the core module imports nothing.
 */
export const ASC_FLAGS = ['-O3', '--runtime', 'incremental', '--use', 'abort='];

/** The export names the component model expects for the handler's function and its post-return. */
const HANDLE = 'basis:hook/handler@1.0.0#handle';
const RENAMES: ReadonlyArray<readonly [string, string]> = [
  ['handle', HANDLE],
  ['cabi_post_handle', `cabi_post_${HANDLE}`],
];

/** The subset of `assemblyscript/asc` used here. */
interface Asc {
  main(argv: string[], options: AscOptions): Promise<{ error: Error | null }>;
  createMemoryStream(): Sink;
}
interface AscOptions {
  stdout: Sink;
  stderr: Sink;
  writeFile(name: string, contents: Uint8Array | string, baseDir: string): void;
  transforms: unknown[];
}
interface Sink {
  write(chunk: Uint8Array | string): void;
  toString(): string;
}
/** The parts of binaryen.js's module API the renaming uses. */
interface BinaryenModule {
  getExport(name: string): number;
  removeExport(name: string): void;
  addFunctionExport(internalName: string, externalName: string): void;
}

/**
 * An asc transform that gives the hook's exports their component-model names, which no identifier can
 * spell: `handle` → `basis:hook/handler@1.0.0#handle`, `cabi_post_handle` → `cabi_post_…`. The same
 * as the starter's `glue/export-names.mjs`, but loaded from this package: that file imports
 * `assemblyscript/transform`, which a hook directory without node_modules cannot resolve.
 *
 * asc instantiates a transform class after assigning `binaryen` to its prototype; `declare` keeps the
 * class from shadowing it with an own field.
 */
class ExportNames {
  declare readonly binaryen: { getExportInfo(ref: number): { value: string } };

  afterCompile(module: BinaryenModule): void {
    for (const [from, to] of RENAMES) {
      const ref = module.getExport(from);
      if (ref === 0) throw new Error(`the hook does not export \`${from}\` (export it as the starter does: \`export function handle(request: usize): usize\`)`);
      const internal = this.binaryen.getExportInfo(ref).value;
      module.removeExport(from);
      module.addFunctionExport(internal, to);
    }
  }
}

async function loadAsc(): Promise<Asc> {
  try {
    return ((await import('assemblyscript/asc')) as unknown as { default: Asc }).default;
  } catch (error) {
    throw new ToolchainMissingError('AssemblyScript', 'the npm package `assemblyscript` was not found', ASSEMBLYSCRIPT_TOOLCHAIN, { cause: error });
  }
}

type AsManifest = Extract<HookManifest, { lang: 'assemblyscript' }>;

/** Build an AssemblyScript hook's core module in-process with the `assemblyscript` package. */
export async function buildAssemblyScriptCore(dir: string, manifest: AsManifest, steps: Steps): Promise<Uint8Array> {
  const asc = await steps.run('load the AssemblyScript compiler', loadAsc);
  return steps.run(`compile ${manifest.source} (asc ${ASC_FLAGS.join(' ')})`, async () => {
    let binary: Uint8Array | undefined;
    const stdout = asc.createMemoryStream();
    const stderr = asc.createMemoryStream();
    const uses = (manifest.use ?? []).flatMap((u) => ['--use', u]);
    const { error } = await asc.main([join(dir, manifest.source), ...ASC_FLAGS, ...uses, '--outFile', 'hook.core.wasm'], {
      stdout,
      stderr,
      writeFile(name, contents) {
        if (name.endsWith('.wasm') && typeof contents !== 'string') binary = contents;
      },
      transforms: [ExportNames],
    });
    if (error !== null || binary === undefined) {
      throw new KitError('build_failed', `asc ${manifest.source} failed: ${error?.message ?? 'no binary emitted'}\n${stderr.toString().trim()}`, { cause: error });
    }
    return binary;
  });
}
