/**
 * Builds the TypeScript guests (`guest-examples/ts/`): `npx tsx scripts/build-guests.ts ts`.
 *
 * 1. `jco types --guest` turns wit/hook.wit into ambient module declarations (`build/types/`), so the
 *    guests are type-checked against the WIT itself.
 * 2. The TypeScript compiler type-checks and emits ES modules (`build/js/`) with the guests' own
 *    tsconfig (no DOM, no Node types: neither exists inside a component). A type error fails the build.
 * 3. Each emitted module is componentized with both engines, exactly like the JavaScript guests
 *    (scripts/guests/js.ts): `build/{spidermonkey,quickjs}/{guard,redact}.wasm`.
 * Steps 1–2 are skipped when the TypeScript inputs have not changed; step 3 per component by stamp.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ROOT, WIT_PATH, WORLD, enableBuildFilesystem } from './jco.js';
import { JS_ENGINES, allowedImports, buildJsComponent, jsToolVersions } from './js.js';
import { inputsHash, isFresh, writeStamp } from './stamp.js';
import type { GuestBuildContext, GuestBuilder } from './types.js';

const TS_DIR = join(ROOT, 'guest-examples/ts');
const BUILD_DIR = join(TS_DIR, 'build');
const TYPES_DIR = join(BUILD_DIR, 'types');
const EMIT_DIR = join(BUILD_DIR, 'js');
const TSCONFIG = join(TS_DIR, 'tsconfig.json');
const POLICIES = ['guard', 'redact'] as const;

/** Write the guest-side TypeScript declarations of the `hook` world into `build/types/`. */
async function generateTypes(): Promise<void> {
  await enableBuildFilesystem();
  const { types } = await import('@bytecodealliance/jco');
  const files = await types(WIT_PATH, { worldName: WORLD, guest: true, quiet: true });
  await rm(TYPES_DIR, { recursive: true, force: true });
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(TYPES_DIR, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }
}

/** Type-check and emit with the guests' tsconfig; throws with the compiler's diagnostics on error. */
function compile(): void {
  const config = ts.readConfigFile(TSCONFIG, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, TS_DIR, undefined, TSCONFIG);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const fail = (diagnostics: readonly ts.Diagnostic[]): void => {
    if (diagnostics.length === 0) return;
    const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
    throw new Error(`TypeScript guests do not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
  };
  // Check before emitting: a guest with a type error must not leave JavaScript behind to componentize.
  fail([...parsed.errors, ...ts.getPreEmitDiagnostics(program)]);
  fail(program.emit().diagnostics);
}

/** The TypeScript inputs: every `.ts` source beside the tsconfig. */
async function tsSources(): Promise<string[]> {
  return (await readdir(TS_DIR)).filter((f) => f.endsWith('.ts')).sort().map((f) => join(TS_DIR, f));
}

async function compileIfStale(context: GuestBuildContext): Promise<void> {
  const hash = await inputsHash([...(await tsSources()), TSCONFIG, WIT_PATH, fileURLToPath(import.meta.url)], [`typescript ${ts.version}`, ...jsToolVersions()]);
  const emitted = POLICIES.map((p) => join(EMIT_DIR, `${p}.js`));
  if (!context.force && (await isFresh(EMIT_DIR, hash)) && emitted.every((f) => existsSync(f))) return;
  await rm(`${EMIT_DIR}.stamp`, { force: true });
  await rm(EMIT_DIR, { recursive: true, force: true });
  await generateTypes();
  compile();
  await writeStamp(EMIT_DIR, hash);
  context.log(`compiled ${POLICIES.map((p) => `${p}.ts`).join(', ')} with TypeScript ${ts.version}`);
}

const builder: GuestBuilder = {
  name: 'ts',
  async build(context) {
    await compileIfStale(context);
    for (const engine of JS_ENGINES) {
      for (const policy of POLICIES) {
        const source = join(EMIT_DIR, `${policy}.js`);
        await buildJsComponent(
          { engine, source, inputs: [source], out: join(BUILD_DIR, engine, `${policy}.wasm`), world: 'hook', allowedImports: allowedImports('hook', engine) },
          context,
        );
      }
    }
  },
};

export default builder;
