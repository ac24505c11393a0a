import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importOptional, resolveOptional } from '../../errors/package-missing-error.js';
import { CACHE_FORMAT, type CacheContents } from '../cache/cache.js';
import { patchGlue } from './glue-patch.js';
import { parseWorld, type ComponentWorld } from './world.js';

/*
 * jco's transpiler as a library (`@bytecodealliance/jco-transpile`, the part of jco that running hooks
 * needs; jco's CLI and its componentize toolchains are authoring tools): `componentWit` to read a
 * component's world and `transpileBytes` (instantiation mode: the host supplies every import) to turn
 * it into JS glue plus core modules. Imported only when a component is not in the cache — its wasm
 * tools run on preview2-shim's Node bindings, which start an I/O thread; a warm start never loads it.
 * It is an optional peer dependency (it brings binaryen, ~95 MB, which the host never runs): whoever
 * runs component hooks installs it, and a load without it fails naming the command.
 */

const JCO = '@bytecodealliance/jco-transpile';

interface Transpiler {
  readonly componentWit: typeof import('@bytecodealliance/jco-transpile/wasm-tools').componentWit;
  readonly transpileBytes: typeof import('@bytecodealliance/jco-transpile').transpileBytes;
}
let jco: Promise<Transpiler> | undefined;

/** An optional peer dependency of basis-hooks: not installed, it is a `PackageMissingError` naming the command. */
function loadJco(): Promise<Transpiler> {
  jco ??= importOptional(JCO, () => Promise.all([import('@bytecodealliance/jco-transpile/wasm-tools'), import('@bytecodealliance/jco-transpile')])).then(([tools, transpiler]) => ({
    componentWit: tools.componentWit,
    transpileBytes: transpiler.transpileBytes,
  }));
  jco.catch(() => {
    jco = undefined;
  });
  return jco;
}

let version: string | undefined;

/**
 * `jco-transpile@<version>`: part of the cache key, since another transpiler writes other glue. Throws
 * a `PackageMissingError` (with the install command) when the package is not installed: the first
 * thing a component load asks, so that is what a missing transpiler is reported as.
 */
export function transpilerVersion(): string {
  if (version === undefined) {
    // The package exports no ./package.json; its main module sits in dist/ beside it.
    const main = resolveOptional(JCO);
    const pkg = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version?: unknown };
    version = `jco-transpile@${typeof pkg.version === 'string' ? pkg.version : 'unknown'}`;
  }
  return version;
}

/** The component's world (imports and exports with versions). Rejects for bytes that are not a component. */
export async function readWorld(component: Uint8Array): Promise<ComponentWorld> {
  return parseWorld(await (await loadJco()).componentWit(component));
}

/** Transpile a component into what the cache stores. */
export async function transpileComponent(component: Uint8Array, sha256: string, world: ComponentWorld): Promise<CacheContents> {
  const result = await (await loadJco()).transpileBytes(component, {
    name: 'hook',
    instantiation: 'async',
    // Every core module as a file, none inlined as base64: each must pass through the memory cap.
    base64Cutoff: 0,
    emitTypescriptDeclarations: false,
    // err(message) arrives as a ComponentError (what jco's CLI API does; jco-transpile's default
    // throws the bare payload, which a guest could forge by throwing any value).
    noComponentErrorWrapping: false,
  });
  const modules: Record<string, Uint8Array> = {};
  let glue: Uint8Array | undefined;
  for (const [name, bytes] of Object.entries(result.files)) {
    if (name.endsWith('.wasm')) modules[name] = bytes;
    else if (name === 'hook.js') glue = patchGlue(bytes);
  }
  if (glue === undefined) throw new Error('jco produced no hook.js');
  return {
    manifest: {
      format: CACHE_FORMAT,
      sha256,
      transpiler: transpilerVersion(),
      imports: [...world.imports],
      exports: [...world.exports],
      modules: Object.keys(modules).sort(),
    },
    glue,
    modules,
  };
}
