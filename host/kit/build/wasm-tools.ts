import { readFile } from 'node:fs/promises';
import { importOptional, resolveOptional } from '../../errors/package-missing-error.js';
import { packagePath, PREVIEW1_ADAPTER, readPackageFile, WIT_WORLD } from '../package-files.js';

/*
 * jco's wasm-tools, as `@bytecodealliance/jco-transpile` ships them (an optional peer dependency of
 * basis-hooks, which the host transpiles components with too), imported on first use: WAT → core
 * module, embed a world into a core module, wrap it as a component, read a component's WIT.
 */

type Tools = typeof import('@bytecodealliance/jco-transpile/wasm-tools');
let tools: Promise<Tools> | undefined;

/** jco's wasm-tools, loaded once; not installed, a `PackageMissingError` naming the install command. */
export function loadWasmTools(): Promise<Tools> {
  tools ??= importOptional('@bytecodealliance/jco-transpile', () => import('@bytecodealliance/jco-transpile/wasm-tools'));
  tools.catch(() => {
    tools = undefined;
  });
  return tools;
}

/**
 * Throw a `PackageMissingError` (naming the install command) now when jco's wasm-tools are not
 * installed, rather than after a build has compiled for seconds: making a component from a core module
 * and verifying one both need them.
 */
export function requireWasmTools(): void {
  resolveOptional('@bytecodealliance/jco-transpile', '@bytecodealliance/jco-transpile/wasm-tools');
}

let filesystem: Promise<void> | undefined;

/**
 * Give the wasm tools that run on preview2-shim (jco's, componentize-js's) the host filesystem: since
 * 0.26.1 preview2-shim preopens nothing, and they read WIT directories and sources through it. Build
 * time only — the hook host runs guests on its own sandboxed WASI, never on preview2-shim's.
 */
export function enableBuildFilesystem(): Promise<void> {
  filesystem ??= (async () => {
    const fs = (await import('@bytecodealliance/preview2-shim/filesystem')) as unknown as { _setPreopens(preopens: Record<string, string>): void };
    fs._setPreopens({ '/': '/' });
  })();
  return filesystem;
}

/** The piece of the WebAssembly JS API used here (lib ES2023 declares none of it; Node has it). */
const WasmModule = (
  globalThis as unknown as {
    WebAssembly: { Module: { new (bytes: Uint8Array): object; imports(module: object): Array<{ module: string; name: string }> } };
  }
).WebAssembly.Module;

/** Whether a core module imports WASI preview1 (libc I/O, clocks...): then it needs the reactor adapter. */
export function usesWasiPreview1(core: Uint8Array): boolean {
  return WasmModule.imports(new WasmModule(core)).some((i) => i.module === 'wasi_snapshot_preview1');
}

/** Which world a core module is embedded with: by default the package's `hook` world. */
export interface EmbedWorld {
  /** WIT source text holding the world (default: wit/hook.wit). */
  readonly witSource?: string;
  /** A WIT directory holding the world (its `deps/` resolved), instead of `witSource`. */
  readonly witPath?: string;
  /** The world's name (default `hook`). */
  readonly world?: string;
}

/**
 * Core module → component: embed the world (the `jco embed` step), then `jco new`, adding the WASI
 * preview1 reactor adapter (shipped in the package's `adapters/`) only when the module imports WASI, so
 * a hook that uses none imports none.
 */
export async function componentFromCore(core: Uint8Array, world: EmbedWorld = {}): Promise<{ readonly component: Uint8Array; readonly wasiAdapter: boolean }> {
  const wasm = await loadWasmTools();
  const name = world.world ?? WIT_WORLD;
  let embedded: Uint8Array;
  if (world.witPath !== undefined) {
    await enableBuildFilesystem();
    embedded = await wasm.componentEmbed({ binary: core, witPath: world.witPath, world: name, stringEncoding: 'utf8' });
  } else {
    embedded = await wasm.componentEmbed({ binary: core, witSource: world.witSource ?? (await readPackageFile('wit/hook.wit')), world: name, stringEncoding: 'utf8' });
  }
  const wasiAdapter = usesWasiPreview1(core);
  const adapters: Array<[string, Uint8Array]> = wasiAdapter ? [['wasi_snapshot_preview1', new Uint8Array(await readFile(packagePath(PREVIEW1_ADAPTER)))]] : [];
  return { component: await wasm.componentNew(embedded, adapters), wasiAdapter };
}

/** WebAssembly text → binary (a core module, or a component written as text). */
export async function parseWat(text: string): Promise<Uint8Array> {
  return (await loadWasmTools()).parse(text);
}

/** The interfaces a component imports, with versions (`wasi:cli/stderr@0.2.12`), from its WIT. */
export async function componentImports(component: Uint8Array): Promise<string[]> {
  const wit = await (await loadWasmTools()).componentWit(component);
  return [...wit.matchAll(/^\s*import ([^;:]+);/gm)].map((m) => (m[1] ?? '').trim());
}
