import { readFile } from 'node:fs/promises';
import { readPackageFile, WIT_WORLD } from '../package-files.js';

/*
 * jco's wasm-tools, imported on first use (only `build` needs them): embed the basis:hook world into a
 * core module and wrap it as a component, with jco's preview1 reactor adapter when the module uses
 * WASI. The WIT is passed as text, so none of this reads files through preview2-shim.
 */

type Jco = typeof import('@bytecodealliance/jco');
let jco: Promise<Jco> | undefined;

/** jco, loaded once. */
export function loadJco(): Promise<Jco> {
  jco ??= import('@bytecodealliance/jco');
  return jco;
}

let filesystem: Promise<void> | undefined;

/**
 * Give jco's own wasm tools (which run on preview2-shim, whose 0.26.1 has no default `/` preopen) the
 * host filesystem: componentize-js reads the WIT and the source through them. Build time only — the
 * hook host runs guests on its own sandboxed WASI, never on preview2-shim.
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

/**
 * Core module → component: embed the `hook` world of the package's `wit/hook.wit` (the `jco embed`
 * step), then `jco new`, adding the preview1 reactor adapter only when the module imports WASI (so a
 * hook that uses none imports none).
 */
export async function componentFromCore(core: Uint8Array): Promise<{ readonly component: Uint8Array; readonly wasiAdapter: boolean }> {
  const tools = await loadJco();
  const embedded = await tools.componentEmbed({ binary: core, witSource: await readPackageFile('wit/hook.wit'), world: WIT_WORLD, stringEncoding: 'utf8' });
  const wasiAdapter = usesWasiPreview1(core);
  const adapters: Array<[string, Uint8Array]> = wasiAdapter ? [['wasi_snapshot_preview1', new Uint8Array(await readFile(tools.preview1AdapterReactorPath()))]] : [];
  return { component: await tools.componentNew(embedded, adapters), wasiAdapter };
}
