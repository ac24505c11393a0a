import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { KitError } from './errors/kit-error.js';

/**
 * Files the kit takes from the basis-hooks package itself rather than from copies: the WIT world and
 * each language's canonical-ABI glue, so a starter always gets the glue the guest examples are tested
 * with. This file sits two levels below the package root both as source (host/kit/) and as built
 * output (dist/kit/); the package must ship `wit/` and the `guest-examples/<lang>/glue/` directories.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of a file shipped with the package, given relative to its root. */
export function packagePath(relative: string): string {
  return `${ROOT}${relative}`;
}

/** The `basis:hook@1.0.0` WIT (`wit/hook.wit`). */
export const WIT_FILE = packagePath('wit/hook.wit');

/** The world every hook component targets. */
export const WIT_WORLD = 'hook';

/** Read a file shipped with the package; a missing one means a broken installation, and says so. */
export async function readPackageFile(relative: string): Promise<string> {
  const path = packagePath(relative);
  if (!existsSync(path)) {
    throw new KitError('package_incomplete', `this installation of basis-hooks has no ${relative} (expected at ${path}); reinstall basis-hooks`);
  }
  return readFile(path, 'utf8');
}

/** The WASI release whose WIT the package ships (`wit/wasi/0.2.12/`), the one jco and componentize-qjs bundle. */
export const WASI_VERSION = '0.2.12';

/** The WASI packages shipped as WIT. */
export type WasiPackage = 'cli' | 'clocks' | 'filesystem' | 'http' | 'io' | 'random' | 'sockets';

/** Absolute path of a shipped WASI package's WIT. */
export function wasiWitFile(pkg: WasiPackage): string {
  return packagePath(`wit/wasi/${WASI_VERSION}/${pkg}.wit`);
}

/** WASI preview1 → preview2 reactor adapter, for core modules that import WASI preview1 (C, Rust std). */
export const PREVIEW1_ADAPTER = 'adapters/wasi_snapshot_preview1.reactor.wasm';

/** The JavaScript glue between the contract's shapes and the WIT, bundled into every JS/TS hook. */
export const JS_GLUE = 'guest-examples/js/glue/hook.js';
/** The contract's shapes as TypeScript declarations, for JS and TS starters (`types/hook.d.ts`). */
export const JS_TYPES = 'guest-examples/js/glue/hook.d.ts';
/** The world JavaScript hooks are built against: the hook world plus stderr and the environment. */
export const JS_WORLD = 'guest-examples/js/glue/world.wit';
export const JS_WORLD_NAME = 'hook-js';
