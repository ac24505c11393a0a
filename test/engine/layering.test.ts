import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The TypeScript sources under `dir` (generated bindings aside: they are written by scripts/gen-wit-types.ts). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && path.endsWith('.ts') && !path.includes('/generated/')) out.push(relative(ROOT, path));
  }
  return out.sort();
}

/** The project files `file` imports (relative specifiers, static or dynamic, types included). */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => relative(ROOT, resolve(dirname(join(ROOT, file)), m[1]!.replace(/\.js$/, '.ts'))));
}

function lines(file: string): number {
  return readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;
}

describe('the engine floor (docs/architecture.md)', () => {
  it('host/engine imports nothing of the project above it: no contract, codec, runner, transport or hook type', () => {
    const outside = sources('host/engine').flatMap((file) => imports(file).filter((target) => !target.startsWith('host/engine/')).map((target) => `${file} -> ${target}`));
    // The one way out: the optional-package error (jco-transpile is an optional peer dependency), shared with the CLI and the kit.
    expect(outside.filter((edge) => !edge.endsWith('-> host/errors/package-missing-error.ts'))).toEqual([]);
  });

  it('the hook adapter uses the engine\'s modules, never the meter\'s internals or the WASI bindings', () => {
    const reached = new Set(sources('host/transports/component').flatMap((file) => imports(file).filter((target) => target.startsWith('host/engine/'))));
    expect(reached.size).toBeGreaterThan(0);
    expect([...reached].filter((target) => /\/(meter|wasi\/generated)\//.test(target))).toEqual([]);
  });

  it('no file of the engine, the hook adapter or the runner is over 400 lines, and the adapter is at most 2,000', () => {
    const files = [...sources('host/engine'), ...sources('host/transports/component'), ...sources('host/runner')];
    expect(files.filter((file) => lines(file) > 400).map((file) => `${file}: ${lines(file)}`)).toEqual([]);
    const adapter = sources('host/transports/component').reduce((sum, file) => sum + lines(file), 0);
    expect(adapter).toBeLessThanOrEqual(2000);
  });
});
