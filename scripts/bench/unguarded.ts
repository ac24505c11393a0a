/**
 * The raw baseline: the same guest's `handle` export called in this thread through jco's glue, with no
 * host around it — no worker, no metering, no checks on what comes back (the memory cap is the same).
 * What the host adds is measured against this.
 *
 * Uses the host's own `instantiateUnguarded` (host/transports/component/unguarded.ts) when it exists;
 * otherwise transpiles the component here with jco and instantiates it with the host's deny-by-default
 * WASI (the same imports the guarded instance gets, so only the isolation differs).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { toWitRequest, type HookRequest, type WitHookRequest } from '../../host/index.js';
import { createSandbox, type SandboxImports } from '../../host/transports/component/sandbox/index.js';
import { Wasm, type WasmInstance, type WasmModule } from '../../host/transports/component/wasm-api.js';

/** A guest instance called without the host. */
export interface UnguardedGuest {
  /** Where the instance came from: the host's `instantiateUnguarded`, or this file's fallback. */
  readonly source: 'host' | 'bench';
  /** One raw call; returns whatever the glue returns. */
  call(): unknown;
  close(): Promise<void>;
}

const HOST_MODULE = new URL('../../host/transports/component/unguarded.ts', import.meta.url);

interface HostUnguarded {
  handle(request: HookRequest): unknown;
  close?(): unknown;
}

function isHostUnguarded(value: unknown): value is HostUnguarded {
  return typeof value === 'object' && value !== null && typeof (value as { handle?: unknown }).handle === 'function';
}

/** Whether the host provides `instantiateUnguarded` (checked at run time: another change adds it). */
export function hostHasUnguarded(): boolean {
  return existsSync(HOST_MODULE);
}

/**
 * Instantiate `path` for raw calls of `request`. Both forms convert the request to the WIT record in
 * each call, as every transport must.
 */
export async function loadUnguarded(path: string, cacheDir: string, request: HookRequest): Promise<UnguardedGuest> {
  if (hostHasUnguarded()) {
    // A variable specifier: the module may not exist when this file is type-checked.
    const specifier: string = HOST_MODULE.href;
    const mod = (await import(specifier)) as { instantiateUnguarded?: unknown };
    if (typeof mod.instantiateUnguarded === 'function') {
      const instantiate = mod.instantiateUnguarded as (path: string, options: { cache_dir: string }) => unknown;
      const instance = await instantiate(path, { cache_dir: cacheDir });
      if (!isHostUnguarded(instance)) throw new Error('instantiateUnguarded returned no { handle }');
      // It takes the contract's request and converts it to the WIT record per call, as a transport must.
      return {
        source: 'host',
        call: () => instance.handle(request),
        close: async () => {
          await instance.close?.();
        },
      };
    }
  }
  return loadFallback(path, cacheDir, request);
}

interface Glue {
  instantiate(
    getCoreModule: (name: string) => WasmModule,
    imports: SandboxImports,
    instantiateCore?: (module: WasmModule, imports: Readonly<Record<string, unknown>>) => Promise<WasmInstance>,
  ): Promise<Record<string, unknown>>;
}

const HANDLER = 'basis:hook/handler@1.0.0';

async function loadFallback(path: string, cacheDir: string, request: HookRequest): Promise<UnguardedGuest> {
  const bytes = new Uint8Array(await readFile(path));
  const sha = createHash('sha256').update(bytes).digest('hex');
  const dir = join(cacheDir, 'bench-unguarded', sha);
  if (!existsSync(join(dir, 'done'))) await transpileInto(bytes, dir);
  // QuickJS guests need extended constant expressions (see host/transports/component/loader.ts).
  v8.setFlagsFromString('--experimental-wasm-extended-const');
  const modules = new Map<string, WasmModule>();
  const names = JSON.parse(await readFile(join(dir, 'done'), 'utf8')) as string[];
  for (const name of names) modules.set(name, await Wasm.compile(new Uint8Array(await readFile(join(dir, name)))));
  const glue = (await import(pathToFileURL(join(dir, 'hook.mjs')).href)) as Glue;
  const sandbox = createSandbox({ env: [], readOnlyDirs: [], maxLogBytes: 64 * 1024 });
  const exports = await glue.instantiate(
    (name) => {
      const module = modules.get(name);
      if (module === undefined) throw new Error(`no core module ${name}`);
      return module;
    },
    sandbox.imports,
    (module, imports) => Wasm.instantiate(module, imports),
  );
  const handler = exports[HANDLER] as { handle?: unknown } | undefined;
  if (typeof handler?.handle !== 'function') throw new Error(`${path}: no ${HANDLER}.handle`);
  const handle = handler.handle as (request: WitHookRequest) => unknown;
  return {
    source: 'bench',
    call: () => handle(toWitRequest(request)),
    close: async () => sandbox.dispose(),
  };
}

async function transpileInto(component: Uint8Array, dir: string): Promise<void> {
  const { transpileBytes } = await import('@bytecodealliance/jco-transpile');
  const result = await transpileBytes(component, { name: 'hook', instantiation: 'async', base64Cutoff: 0, emitTypescriptDeclarations: false, noComponentErrorWrapping: false });
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const modules: string[] = [];
  for (const [name, contents] of Object.entries(result.files)) {
    if (name.endsWith('.wasm')) modules.push(name);
    else if (name !== 'hook.js') continue;
    await writeFile(join(tmp, name === 'hook.js' ? 'hook.mjs' : name), contents);
  }
  await writeFile(join(tmp, 'done'), JSON.stringify(modules));
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
}
