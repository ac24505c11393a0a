import { dirname, join, relative, resolve } from 'node:path';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { HookManifest } from '../manifest.js';
import { TYPESCRIPT_TOOLCHAIN } from '../toolchains.js';
import type { Steps } from './progress.js';

type Ts = typeof import('typescript');
type TsManifest = Extract<HookManifest, { lang: 'ts' }>;

async function loadTypeScript(): Promise<Ts> {
  try {
    return ((await import('typescript')) as unknown as { default: Ts }).default;
  } catch (error) {
    throw new ToolchainMissingError('TypeScript', 'the npm package typescript was not found', TYPESCRIPT_TOOLCHAIN, { cause: error });
  }
}

/**
 * Type-check a TypeScript hook with its own tsconfig (the starter's declares the WIT's types in
 * `types/`, so a decision of the wrong shape is an error) and emit JavaScript into `build/js/`. Any
 * diagnostic fails the build before JavaScript is emitted. Returns the emitted entry module.
 */
export async function compileTypeScript(dir: string, manifest: TsManifest, steps: Steps): Promise<string> {
  const ts = await steps.run('load the TypeScript compiler', loadTypeScript);
  return steps.run(`type-check and compile ${manifest.source} (TypeScript ${ts.version})`, async () => {
    const configFile = join(dir, manifest.tsconfig);
    const read = ts.readConfigFile(configFile, (path) => ts.sys.readFile(path));
    if (read.error !== undefined) throw new KitError('build_failed', `${configFile}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configFile), undefined, configFile);
    const outDir = join(dir, 'build/js');
    const rootDir = parsed.options.rootDir ?? dirname(configFile);
    const entry = resolve(dir, manifest.source);
    const options = { ...parsed.options, outDir, rootDir, noEmit: false, declaration: false, sourceMap: false };
    const rootNames = parsed.fileNames.includes(entry) ? parsed.fileNames : [...parsed.fileNames, entry];
    const program = ts.createProgram({ rootNames, options });
    const host: import('typescript').FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
    const fail = (diagnostics: readonly import('typescript').Diagnostic[]): void => {
      if (diagnostics.length > 0) throw new KitError('build_failed', `TypeScript errors:\n${ts.formatDiagnostics(diagnostics, host).trim()}`);
    };
    // Check before emitting: a hook with a type error must not leave JavaScript behind to componentize.
    fail([...parsed.errors, ...ts.getPreEmitDiagnostics(program)]);
    fail(program.emit().diagnostics);
    return join(outDir, relative(rootDir, entry)).replace(/\.(m|c)?ts$/, '.$1js');
  });
}
