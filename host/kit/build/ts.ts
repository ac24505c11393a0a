import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { HookManifest } from '../manifest.js';
import { TYPESCRIPT_TOOLCHAIN } from '../toolchains.js';
import { runTool, ToolNotFound } from './exec.js';
import type { Steps } from './progress.js';

type TsManifest = Extract<HookManifest, { lang: 'ts' }>;

/** The oldest TypeScript whose `tsc` understands the starter's tsconfig (`moduleResolution: Bundler`). */
export const MIN_TYPESCRIPT_MAJOR = 5;

/** An installed TypeScript: its version and its `tsc` script. */
export interface TypeScriptCompiler {
  readonly version: string;
  readonly tsc: string;
  readonly from: string;
}

/** Where the `typescript` package is: the hook's own project first, then beside basis-hooks. */
function findPackageJson(dir: string): string | undefined {
  for (const base of [join(dir, 'hook.json'), import.meta.url]) {
    try {
      return createRequire(base).resolve('typescript/package.json');
    } catch {
      // not installed there
    }
  }
  return undefined;
}

/**
 * Find `tsc`. The compiler is run as a program, not loaded as a library: its command line is the one
 * interface TypeScript 5 and TypeScript 7 (the native compiler, whose package has no JavaScript API at
 * its root) share.
 */
export async function findTypeScript(dir: string): Promise<TypeScriptCompiler> {
  const packageJson = findPackageJson(dir);
  if (packageJson === undefined) throw new ToolchainMissingError('TypeScript', 'the npm package typescript was not found', TYPESCRIPT_TOOLCHAIN);
  const pkg = JSON.parse(await readFile(packageJson, 'utf8')) as { version?: unknown; bin?: unknown };
  const version = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  const bin = typeof pkg.bin === 'object' && pkg.bin !== null ? (pkg.bin as Record<string, unknown>)['tsc'] : undefined;
  const major = Number.parseInt(version, 10);
  if (!(major >= MIN_TYPESCRIPT_MAJOR) || typeof bin !== 'string') {
    throw new ToolchainMissingError('TypeScript', `TypeScript ${version} (${dirname(packageJson)}) is not supported: basis-hooks needs ${MIN_TYPESCRIPT_MAJOR}.0 or later (5.x and 7.x are tested)`, TYPESCRIPT_TOOLCHAIN);
  }
  return { version, tsc: join(dirname(packageJson), bin), from: dirname(packageJson) };
}

/**
 * Type-check a TypeScript hook with its own tsconfig and emit JavaScript into `build/js/`: `tsc -p
 * <tsconfig> --noEmitOnError`, so a hook with a type error leaves no JavaScript behind to componentize.
 * Returns the emitted entry module, relative to the hook directory.
 */
export async function compileTypeScript(dir: string, manifest: TsManifest, steps: Steps): Promise<string> {
  const ts = await steps.run('find the TypeScript compiler', () => findTypeScript(dir));
  return steps.run(`type-check and compile ${manifest.source} (TypeScript ${ts.version})`, async () => {
    const configFile = join(dir, manifest.tsconfig);
    if (!existsSync(configFile)) throw new KitError('build_failed', `${configFile}: not found (hook.json's "tsconfig")`);
    const outDir = join(dir, 'build', 'js');
    await rm(outDir, { recursive: true, force: true });
    const args = [ts.tsc, '-p', configFile, '--outDir', outDir, '--noEmitOnError', '--noEmit', 'false', '--declaration', 'false', '--sourceMap', 'false', '--pretty', 'false', '--listEmittedFiles'];
    let run;
    try {
      run = await runTool(process.execPath, args, { cwd: dir });
    } catch (error) {
      if (error instanceof ToolNotFound) throw new ToolchainMissingError('TypeScript', `cannot run ${ts.tsc}`, TYPESCRIPT_TOOLCHAIN, { cause: error });
      throw error;
    }
    const diagnostics = run.stdout
      .split('\n')
      .filter((line) => !line.startsWith('TSFILE: ') && line.trim() !== '')
      .join('\n');
    if (!run.ok) throw new KitError('build_failed', `TypeScript errors (tsc ${ts.version}):\n${(diagnostics || run.stderr).trim()}`);
    // tsc lists what it wrote: the entry is the emitted file of the manifest's source.
    const emitted = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('TSFILE: '))
      .map((line) => line.slice('TSFILE: '.length).trim());
    const stem = resolve(dir, manifest.source).replace(/\.(m|c)?ts$/, '');
    const wanted = new RegExp(`\\.${/\.mts$/.test(manifest.source) ? 'm' : /\.cts$/.test(manifest.source) ? 'c' : ''}js$`);
    // The emitted path is outDir + the source's path below tsc's rootDir: the longest match wins.
    const entry = emitted
      .filter((file) => wanted.test(file))
      .map((file) => ({ file, below: `/${relative(outDir, file).split('\\').join('/').replace(/\.(m|c)?js$/, '')}` }))
      .filter(({ below }) => `/${stem.split('\\').join('/')}`.endsWith(below))
      .sort((a, b) => b.below.length - a.below.length)[0]?.file;
    if (entry === undefined) {
      throw new KitError('build_failed', `tsc did not emit JavaScript for ${manifest.source}: is it included by ${manifest.tsconfig}? (emitted: ${emitted.map((f) => relative(dir, f)).join(', ') || 'nothing'})`);
    }
    return relative(dir, entry);
  });
}
