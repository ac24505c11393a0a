/**
 * Builds the JavaScript guests (`guest-examples/js/`) into components, with both engines jco offers:
 * `npx tsx scripts/build-guests.ts js`.
 *
 * - SpiderMonkey (componentize-js / StarlingMonkey, ~12 MB): every WASI feature disabled, so a policy
 *   guest imports nothing. The componentize API silently ignores `disableFeatures: ['all']` (only the
 *   CLI expands `all`), so the features are listed one by one.
 * - QuickJS (componentize-qjs, the engine behind `jco componentize --backend quickjs`, ~1.6 MB): built
 *   with `stubWasi` (every WASI import becomes a trap stub, so none is imported) and `sync` (no
 *   component-model async ABI, which Node 20 cannot run).
 *
 * Outputs under `guest-examples/js/build/`:
 *   spidermonkey/{guard,redact}.wasm      the example policies
 *   spidermonkey/conformance.wasm         every conformance behaviour, chosen per call by BASIS_BEHAVIOUR
 *   quickjs/{guard,redact}.wasm
 *   quickjs/conformance/<behaviour>.wasm  one component per behaviour (QuickJS stubs the environment)
 * Each output is checked against the imports it may have, and skipped when its stamp says its inputs
 * (sources, WIT, this file, engine versions) have not changed. Build scripts only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, WIT_PATH, componentWit, enableBuildFilesystem } from './jco.js';
import { inputsHash, isFresh, writeStamp } from './stamp.js';
import type { GuestBuildContext, GuestBuilder } from './types.js';
import { COMPONENT_BEHAVIOURS } from '../../test/conformance/behaviours.js';

/** All of componentize-js's WASI features (its DEFAULT_FEATURES): a guest that needs none gets none. */
export const SPIDERMONKEY_DISABLED_FEATURES = ['stdio', 'random', 'clocks', 'http', 'fetch-event'] as const;

/** The JS engine a component embeds. */
export type JsEngine = 'spidermonkey' | 'quickjs';
export const JS_ENGINES: readonly JsEngine[] = ['spidermonkey', 'quickjs'];

/** Conformance behaviours with a JS guest (`silent` is not expressible: a component always returns). */
export const JS_CONFORMANCE_BEHAVIOURS = COMPONENT_BEHAVIOURS;

const JS_DIR = join(ROOT, 'guest-examples/js');
export const JS_BUILD_DIR = join(JS_DIR, 'build');
const CONFORMANCE_DIR = join(JS_DIR, 'conformance');
const CONFORMANCE_WIT = ['conformance.wit', 'wasi-cli.wit'].map((f) => join(CONFORMANCE_DIR, 'wit', f));

/** The only import a policy guest may have: the WIT types interface (it carries no functions). */
const POLICY_IMPORTS = ['basis:hook/types@1.0.0'];
/**
 * The SpiderMonkey conformance guest imports the environment (its behaviour), and componentize-js keeps
 * stderr with it (it only stubs what belongs to disabled features); the host's sandbox captures stderr.
 */
const CONFORMANCE_IMPORTS = [...POLICY_IMPORTS, 'wasi:cli/environment@0.2.12', 'wasi:cli/stderr@0.2.12', 'wasi:io/error@0.2.12', 'wasi:io/streams@0.2.12'];

/** What one component is built from. */
export interface JsComponentSpec {
  readonly engine: JsEngine;
  /** Entry module (JavaScript, ESM) exporting `handler`. */
  readonly source: string;
  /** Every file the output depends on besides WIT (the entry and what it imports). */
  readonly inputs: readonly string[];
  /** Output path of the component. */
  readonly out: string;
  /** `hook` (wit/hook.wit) or `conformance` (the hook world plus wasi:cli/environment). */
  readonly world: 'hook' | 'conformance';
  /** Imports the component may have; the build fails on any other. */
  readonly allowedImports: readonly string[];
  /** When set, `source` is generated: this text is written there before building (and hashed). */
  readonly generated?: string;
}

/** Version of the npm package whose entry module is at `entryUrl` (walks up to its package.json). */
function packageVersion(entryUrl: string, name: string): string {
  let dir = dirname(fileURLToPath(entryUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the package.json of ${name}`);
    dir = parent;
  }
}

/**
 * componentize-qjs is what `jco componentize --backend quickjs` runs; it is jco's dependency, so it
 * is resolved from jco's location (the same copy jco would use, wherever npm placed it).
 */
function quickJsEntryUrl(): string {
  const fromJco = createRequire(import.meta.resolve('@bytecodealliance/jco'));
  return pathToFileURL(fromJco.resolve('componentize-qjs')).href;
}

let toolVersions: readonly string[] | undefined;

/** Engine and tool versions that go into every stamp: a new engine rebuilds every guest. */
export function jsToolVersions(): readonly string[] {
  toolVersions ??= [
    `componentize-js ${packageVersion(import.meta.resolve('@bytecodealliance/componentize-js'), '@bytecodealliance/componentize-js')}`,
    `componentize-qjs ${packageVersion(quickJsEntryUrl(), 'componentize-qjs')}`,
    `jco ${packageVersion(import.meta.resolve('@bytecodealliance/jco'), '@bytecodealliance/jco')}`,
  ];
  return toolVersions;
}

interface QuickJsApi {
  componentize(opts: {
    witPath: string;
    jsSource: string;
    jsPath?: string;
    world?: string;
    stubWasi?: boolean;
    sync?: boolean;
  }): Promise<{ component: Uint8Array }>;
}

interface SpiderMonkeyApi {
  componentize(opts: {
    sourcePath: string;
    witPath: string;
    worldName: string;
    disableFeatures: Array<(typeof SPIDERMONKEY_DISABLED_FEATURES)[number]>;
  }): Promise<{ component: Uint8Array }>;
}

/** A WIT directory for the conformance world: its file, with wasi-cli and wit/hook.wit as deps. */
async function conformanceWitDir(): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'basis-js-wit-'));
  await mkdir(join(dir, 'deps'));
  const [world, wasiCli] = CONFORMANCE_WIT as [string, string];
  await writeFile(join(dir, 'conformance.wit'), await readFile(world));
  await writeFile(join(dir, 'deps', 'wasi-cli.wit'), await readFile(wasiCli));
  await writeFile(join(dir, 'deps', 'hook.wit'), await readFile(WIT_PATH));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Componentize one entry module with one engine. Needs {@link enableBuildFilesystem} first. */
async function componentizeWith(spec: JsComponentSpec, witPath: string): Promise<Uint8Array> {
  if (spec.engine === 'quickjs') {
    const qjs = (await import(quickJsEntryUrl())) as QuickJsApi;
    const { component } = await qjs.componentize({
      witPath,
      jsSource: await readFile(spec.source, 'utf8'),
      jsPath: spec.source,
      world: spec.world,
      stubWasi: true,
      sync: true,
    });
    return new Uint8Array(component);
  }
  const sm = (await import('@bytecodealliance/componentize-js')) as unknown as SpiderMonkeyApi;
  // componentize-js maps the working directory to `/` while it snapshots the engine, and relative
  // imports resolve inside it: pin it to the entry's directory (as `jco componentize` does) so the
  // build does not depend on where it ran.
  const callerCwd = process.cwd();
  process.chdir(dirname(spec.source));
  try {
    const { component } = await sm.componentize({
      sourcePath: spec.source,
      witPath,
      worldName: spec.world,
      disableFeatures: [...SPIDERMONKEY_DISABLED_FEATURES],
    });
    return component;
  } finally {
    process.chdir(callerCwd);
  }
}

/** The imports a component declares, from its WIT (`import x;` lines). */
export async function componentImports(component: Uint8Array): Promise<string[]> {
  const wit = await componentWit(component);
  return [...wit.matchAll(/^\s*import ([^;]+);/gm)].map((m) => (m[1] ?? '').trim());
}

/**
 * Build one component unless its stamp is fresh. Throws when the result imports anything outside
 * `spec.allowedImports` (a feature that was meant to be disabled, or a new engine that adds imports).
 */
export async function buildJsComponent(spec: JsComponentSpec, context: GuestBuildContext): Promise<void> {
  const wit = spec.world === 'conformance' ? [WIT_PATH, ...CONFORMANCE_WIT] : [WIT_PATH];
  const hash = await inputsHash([...spec.inputs, ...wit, fileURLToPath(import.meta.url)], [
    spec.engine,
    spec.world,
    ...SPIDERMONKEY_DISABLED_FEATURES,
    ...jsToolVersions(),
    spec.generated ?? '',
  ]);
  const name = relative(ROOT, spec.out);
  if (!context.force && (await isFresh(spec.out, hash))) return;
  if (spec.generated !== undefined) {
    await mkdir(dirname(spec.source), { recursive: true });
    await writeFile(spec.source, spec.generated);
  }
  await enableBuildFilesystem();
  const started = performance.now();
  const conformanceWit = spec.world === 'conformance' ? await conformanceWitDir() : undefined;
  let component: Uint8Array;
  try {
    component = await componentizeWith(spec, conformanceWit?.dir ?? WIT_PATH);
  } finally {
    await conformanceWit?.dispose();
  }
  const imports = await componentImports(component);
  const refused = imports.filter((i) => !spec.allowedImports.includes(i));
  if (refused.length > 0) throw new Error(`${name}: unexpected imports ${refused.join(', ')} (allowed: ${spec.allowedImports.join(', ')})`);
  await mkdir(dirname(spec.out), { recursive: true });
  await writeFile(spec.out, component);
  await writeStamp(spec.out, hash);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  context.log(`${name}: ${(component.length / 1024 / 1024).toFixed(2)} MB in ${seconds} s, imports: ${imports.join(', ') || 'none'}`);
}

/** Allowed imports for a guest of the given world and engine. */
export function allowedImports(world: 'hook' | 'conformance', engine: JsEngine): readonly string[] {
  // QuickJS's stubbed WASI leaves no WASI import at all, environment included.
  return world === 'conformance' && engine === 'spidermonkey' ? CONFORMANCE_IMPORTS : POLICY_IMPORTS;
}

/** The entry of a one-behaviour QuickJS conformance guest (generated: the behaviour is fixed). */
function quickJsConformanceEntry(behaviour: string, entryPath: string): string {
  const behaviours = relative(dirname(entryPath), join(CONFORMANCE_DIR, 'behaviours.js'));
  return [
    '// Generated by scripts/guests/js.ts: one conformance behaviour, fixed at build time.',
    `import { answer } from ${JSON.stringify(behaviours.startsWith('.') ? behaviours : `./${behaviours}`)};`,
    `export const handler = { handle: (request) => answer(${JSON.stringify(behaviour)}, request) };`,
    '',
  ].join('\n');
}

function specs(): JsComponentSpec[] {
  const out: JsComponentSpec[] = [];
  for (const engine of JS_ENGINES) {
    for (const policy of ['guard', 'redact']) {
      const source = join(JS_DIR, `${policy}.js`);
      out.push({ engine, source, inputs: [source], out: join(JS_BUILD_DIR, engine, `${policy}.wasm`), world: 'hook', allowedImports: allowedImports('hook', engine) });
    }
  }
  const behaviours = join(CONFORMANCE_DIR, 'behaviours.js');
  const byEnv = join(CONFORMANCE_DIR, 'by-env.js');
  out.push({
    engine: 'spidermonkey',
    source: byEnv,
    inputs: [byEnv, behaviours],
    out: join(JS_BUILD_DIR, 'spidermonkey', 'conformance.wasm'),
    world: 'conformance',
    allowedImports: allowedImports('conformance', 'spidermonkey'),
  });
  for (const behaviour of JS_CONFORMANCE_BEHAVIOURS) {
    const entry = join(JS_BUILD_DIR, 'quickjs', 'conformance', `${behaviour}.js`);
    out.push({
      engine: 'quickjs',
      source: entry,
      inputs: [behaviours],
      out: join(JS_BUILD_DIR, 'quickjs', 'conformance', `${behaviour}.wasm`),
      world: 'hook',
      allowedImports: allowedImports('hook', 'quickjs'),
      generated: quickJsConformanceEntry(behaviour, entry),
    });
  }
  return out;
}

const builder: GuestBuilder = {
  name: 'js',
  async build(context) {
    for (const spec of specs()) await buildJsComponent(spec, context);
  },
};

export default builder;
