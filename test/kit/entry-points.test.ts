/**
 * Running hooks and authoring them are two entry points: `basis-hooks` (host/index.ts → dist/index.js)
 * and `basis-hooks/kit` (host/kit/index.ts → dist/kit/index.js). An app that only runs hooks installs
 * and loads no toolchain: here the runtime entry's whole import graph — static imports, re-exports and
 * dynamic `import()`s, followed file by file — is read and must never reach the kit or an authoring
 * package, and the package's dependencies must be the runtime's alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './kit.js';

/**
 * Every module a source loads at run time: `import … from '…'` and `export … from '…'` (not the
 * `import type` / `export type` forms, which compile away), `import '…'`, and `import('…')`.
 */
function specifiers(source: string, dynamic = true): string[] {
  // Comments may mention imports; they are not imports.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const patterns = [/^\s*(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s*(['"])([^'"]+)\1/gm, /^\s*import\s*(['"])([^'"]+)\1/gm, ...(dynamic ? [/\bimport\(\s*(['"])([^'"]+)\1\s*\)/g] : [])];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[2] ?? '')).filter((s) => s !== '');
}

interface Graph {
  readonly files: readonly string[];
  readonly packages: readonly string[];
}

/**
 * The import graph from `entry`: its files (relative to the root) and the bare packages it names.
 * `dynamic: false` follows static imports only: what loading the entry loads.
 */
function importGraph(entry: string, ext: '.ts' | '.js', dynamic = true): Graph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of specifiers(readFileSync(file, 'utf8'), dynamic)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, ext);
        // Declarations only (generated WIT types) load nothing at run time.
        const declarations = target.replace(/\.(ts|js)$/, '.d.ts');
        if (existsSync(target)) queue.push(target);
        else if (!spec.endsWith('.json') && !existsSync(declarations)) throw new Error(`${relative(ROOT, file)} imports ${spec}, which is not there`);
      } else if (!spec.startsWith('node:')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
      }
    }
  }
  return { files: [...files].map((f) => relative(ROOT, f)).sort(), packages: [...packages].sort() };
}

/** The authoring toolchains: optional peers of basis-hooks, never needed to run a hook. */
const AUTHORING = ['componentize-qjs', '@bytecodealliance/componentize-js', '@bytecodealliance/jco', 'typescript', 'assemblyscript', 'binaryen'];

/**
 * Runtime packages loaded only on demand, through `importOptional` (a missing one is a
 * PackageMissingError naming its install command): optional peers, so an app that runs no component
 * hook, no MCP gateway and no Cedar hook installs none of them (see CONTRIBUTING.md, install size).
 */
const OPTIONAL_RUNTIME = ['@bytecodealliance/jco-transpile', '@modelcontextprotocol/sdk', '@cedar-policy/cedar-wasm'];

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { types?: string; default?: string } | string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('entry points: basis-hooks runs hooks, basis-hooks/kit authors them', () => {
  const runtime = importGraph(join(ROOT, 'host/index.ts'), '.ts');

  it('the runtime entry\'s import graph never reaches the kit', () => {
    expect(runtime.files.length).toBeGreaterThan(20);
    expect(runtime.files.filter((f) => f.startsWith('host/kit/') || f.startsWith('host/cli/'))).toEqual([]);
  });

  it('the runtime entry names no authoring package, only what running a hook needs', () => {
    expect(runtime.packages.filter((p) => AUTHORING.includes(p))).toEqual([]);
    // The CEL engine is a dependency, imported on first use by a CEL hook; the Cedar engine an
    // optional peer (OPTIONAL_RUNTIME), imported on first use by a Cedar hook.
    expect(runtime.packages).toEqual(['@bytecodealliance/jco-transpile', '@bytecodealliance/preview2-shim', '@cedar-policy/cedar-wasm', '@marcbachmann/cel-js', '@opentelemetry/api', 'zod']);
  });

  it('the built runtime entry (dist/, from npm run build) has the same graph', () => {
    const built = join(ROOT, 'dist/index.js');
    if (!existsSync(built)) return; // not built here; `npm test` builds first
    const graph = importGraph(built, '.js');
    expect(graph.files.filter((f) => f.startsWith('dist/kit/') || f.startsWith('dist/cli/'))).toEqual([]);
    expect(graph.packages).toEqual(runtime.packages);
  });

  it('the kit is its own export, `basis-hooks/kit`, with types first', () => {
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.exports['./kit']).toEqual({ types: './dist/kit/index.d.ts', default: './dist/kit/index.js' });
    expect(existsSync(join(ROOT, 'host/kit/index.ts'))).toBe(true);
  });

  it('what loading the runtime entry loads is a dependency; jco-transpile is reached only on demand', () => {
    const loaded = importGraph(join(ROOT, 'host/index.ts'), '.ts', false);
    expect(loaded.packages.filter((p) => pkg.dependencies[p] === undefined)).toEqual([]);
    expect(loaded.packages).not.toContain('@bytecodealliance/jco-transpile');
    expect(runtime.packages).toContain('@bytecodealliance/jco-transpile');
  });

  it('dependencies are the runtime\'s; every authoring toolchain, jco-transpile and the MCP SDK are optional peers', () => {
    for (const name of Object.keys(pkg.dependencies)) expect([...AUTHORING, ...OPTIONAL_RUNTIME], name).not.toContain(name);
    expect(importGraph(join(ROOT, 'host/integrations/mcp/index.ts'), '.ts').packages).toContain('@modelcontextprotocol/sdk');
    for (const name of ['componentize-qjs', '@bytecodealliance/componentize-js', 'typescript', 'assemblyscript', ...OPTIONAL_RUNTIME]) {
      expect(pkg.peerDependencies[name], name).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
    // The repository's own tests and demo run with them: installed here as devDependencies.
    for (const name of OPTIONAL_RUNTIME) expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies[name]);
  });
});
