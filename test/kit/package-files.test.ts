/**
 * What the kit takes from the package instead of from jco: the WASI preview1 reactor adapter (for C
 * and Rust std hooks that use libc I/O) and the WASI 0.2.12 WIT (for the JavaScript world and WAT
 * guests that import WASI). Both must be there and unchanged, and shipped by `npm pack` (`files`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JS_GLUE, JS_TYPES, JS_WORLD, PREVIEW1_ADAPTER, packagePath, wasiWitFile, type WasiPackage } from '../../host/kit/package-files.js';

describe('files the kit ships', () => {
  it('the preview1 reactor adapter is the copy jco 1.35.0 ships (sha256 recorded in adapters/README.md)', () => {
    const bytes = readFileSync(packagePath(PREVIEW1_ADAPTER));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(sha256).toBe('b857310c4753c8fafaa0f890e9ccf978dc3d9dbe8804b1125291a627485041d0');
    expect(readFileSync(packagePath('adapters/README.md'), 'utf8')).toContain(sha256);
  });

  it('every WASI 0.2.12 package is there, each declaring its own package', () => {
    for (const pkg of ['cli', 'clocks', 'filesystem', 'http', 'io', 'random', 'sockets'] satisfies WasiPackage[]) {
      expect(readFileSync(wasiWitFile(pkg), 'utf8')).toMatch(new RegExp(`^package wasi:${pkg}@0\\.2\\.12;`));
    }
  });

  it('the JavaScript glue, its types and its world are in the package\'s files', () => {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { files: string[] };
    for (const file of [JS_GLUE, JS_TYPES, JS_WORLD, PREVIEW1_ADAPTER, 'wit/wasi/0.2.12/io.wit']) {
      expect(existsSync(packagePath(file)), file).toBe(true);
      expect(pkg.files.some((entry) => file === entry || file.startsWith(`${entry}/`)), file).toBe(true);
    }
  });
});
