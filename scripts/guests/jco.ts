/**
 * Build-time helpers around jco's wasm-tools: WAT → core module, WIT embedding and component creation.
 * Build scripts only; the hook host never imports this.
 *
 * WIT is embedded from source text (`witSource`), so no preopen is needed for the WIT itself. jco's
 * CLI/componentize read files through preview2-shim, which since 0.26.1 has no default `/` preopen: call
 * {@link enableBuildFilesystem} before importing those (build time only, never in the host).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WIT_PATH = `${ROOT}wit/hook.wit`;
export const WORLD = 'hook';

/** Give jco's own wasm tools (which run on preview2-shim) the host filesystem. Build scripts only. */
export async function enableBuildFilesystem(): Promise<void> {
  const fs = (await import('@bytecodealliance/preview2-shim/filesystem')) as unknown as {
    _setPreopens(preopens: Record<string, string>): void;
  };
  fs._setPreopens({ '/': '/' });
}

async function tools() {
  return import('@bytecodealliance/jco');
}

/** Assemble WebAssembly text (core module) into bytes. */
export async function parseWat(wat: string): Promise<Uint8Array> {
  return (await tools()).parse(wat);
}

/** Embed the `basis:hook` world's metadata into a core module (the `jco embed` step). */
export async function embedWorld(core: Uint8Array, witSource?: string): Promise<Uint8Array> {
  const source = witSource ?? (await readFile(WIT_PATH, 'utf8'));
  return (await tools()).componentEmbed({ binary: core, witSource: source, world: WORLD, stringEncoding: 'utf8' });
}

/**
 * Make a component from an embedded core module (the `jco new` step). `wasiReactor` adapts a module
 * built against WASI preview1 (C, Rust std) with jco's preview1 reactor adapter.
 */
export async function newComponent(embedded: Uint8Array, options: { wasiReactor?: boolean } = {}): Promise<Uint8Array> {
  const jco = await tools();
  if (!options.wasiReactor) return jco.componentNew(embedded, []);
  const adapter = await readFile(jco.preview1AdapterReactorPath());
  return jco.componentNew(embedded, [['wasi_snapshot_preview1', new Uint8Array(adapter)]]);
}

/** Core module → component in one step: embed the world, then wrap. */
export async function componentize(core: Uint8Array, options: { wasiReactor?: boolean } = {}): Promise<Uint8Array> {
  return newComponent(await embedWorld(core), options);
}

/** The WIT a component declares (imports and exports), for checks and `inspect`. */
export async function componentWit(component: Uint8Array): Promise<string> {
  return (await tools()).componentWit(component);
}
