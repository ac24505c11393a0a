/**
 * The public surface is reviewed, not accreted. Every entry point package.json `exports` declares is
 * imported from dist/ (the files a user's `import 'basis-hooks…'` loads) and its runtime names, and the
 * names its declaration file exports only as types, are compared with public-surface.json, the list
 * committed beside this test. A name added to or removed from an entry fails here, naming the entry and
 * the names: a deliberate change edits public-surface.json by hand (and docs/library.md, where every
 * runtime name is documented; a test below holds that too). Nothing regenerates the list for you.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/guests.js';

interface Surface {
  /** What `Object.keys(await import(entry))` holds: values, functions, classes, zod schemas. */
  readonly runtime: readonly string[];
  /** Names the entry's .d.ts exports that are types only (interfaces, type aliases). */
  readonly types: readonly string[];
}

const LIST = 'test/api/public-surface.json';
const reviewed = JSON.parse(readFileSync(join(ROOT, LIST), 'utf8')) as Record<string, Surface>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string; default?: string }> };

/** The code entries of package.json `exports` (not `./package.json`), with their JS and .d.ts files. */
const entries = Object.entries(pkg.exports)
  .filter((e): e is [string, { types: string; default: string }] => typeof e[1] === 'object' && e[1].default !== undefined && e[1].types !== undefined)
  .map(([name, target]) => ({ name, js: join(ROOT, target.default), dts: join(ROOT, target.types) }));

/** A failure message that names what changed and how to accept it. */
function unreviewed(entry: string, kind: 'runtime' | 'types', actual: readonly string[], listed: readonly string[]): string | undefined {
  const added = actual.filter((n) => !listed.includes(n));
  const removed = listed.filter((n) => !actual.includes(n));
  if (added.length === 0 && removed.length === 0) return undefined;
  return [
    `the ${kind} exports of '${entry === '.' ? 'basis-hooks' : `basis-hooks/${entry.slice(2)}`}' changed without review:`,
    ...(added.length > 0 ? [`  added (not in ${LIST}): ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`  removed (still in ${LIST}): ${removed.join(', ')}`] : []),
    `If the change is deliberate, edit ${LIST} (entry "${entry}", "${kind}", sorted) by hand${kind === 'runtime' ? ' and document each added name in docs/library.md' : ''}; otherwise stop exporting the internals (import them from their modules instead).`,
  ].join('\n');
}

/** The declaration files an entry's .d.ts reaches through relative `from '…'` and `import('…')`. */
function declarationGraph(roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
      queue.push(resolve(dirname(file), (m[1] ?? m[2] ?? '').replace(/\.js$/, '.d.ts')));
    }
  }
  return [...seen];
}

/**
 * Every name each entry's declaration file exports, as the TypeScript compiler binds them (`export *`
 * chains and `export type` included). Only dist/'s own declarations are read (`noResolve`): the names
 * an entry exports do not depend on its dependencies' types, and reading those would take seconds.
 */
function declaredExports(): Map<string, string[]> {
  const program = ts.createProgram(declarationGraph(entries.map((e) => e.dts)), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    noResolve: true,
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry.dts);
    const symbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (symbol === undefined) throw new Error(`${entry.dts}: not a module (run npm run build)`);
    out.set(entry.name, checker.getExportsOfModule(symbol).map((s) => s.getName()).sort());
  }
  return out;
}

describe('the public surface', () => {
  it(`the entry points are the ones ${LIST} lists`, () => {
    expect(entries.map((e) => e.name).sort(), `package.json "exports" and ${LIST} must list the same entries: a new entry point is new public surface, review it`).toEqual(Object.keys(reviewed).sort());
  });

  it(`${LIST} is sorted and has no duplicates (so a review diff is one line per name)`, () => {
    for (const [entry, surface] of Object.entries(reviewed)) {
      for (const kind of ['runtime', 'types'] as const) {
        const sorted = [...new Set(surface[kind])].sort();
        expect(surface[kind], `${entry} ${kind}`).toEqual(sorted);
      }
    }
  });

  it.each(entries.map((e) => [e.name, e] as const))('%s: its runtime exports are the reviewed ones', async (name, entry) => {
    const module = (await import(pathToFileURL(entry.js).href)) as Record<string, unknown>;
    const actual = Object.keys(module).sort();
    const message = unreviewed(name, 'runtime', actual, reviewed[name]?.runtime ?? []);
    expect(message, message).toBeUndefined();
  });

  it('the declaration files export the runtime names and the reviewed type-only names', () => {
    const declared = declaredExports();
    const problems: string[] = [];
    for (const entry of entries) {
      const surface = reviewed[entry.name];
      const names = declared.get(entry.name) ?? [];
      const runtime = surface?.runtime ?? [];
      const missing = runtime.filter((n) => !names.includes(n));
      if (missing.length > 0) problems.push(`${entry.dts} does not declare runtime exports: ${missing.join(', ')}`);
      const message = unreviewed(entry.name, 'types', names.filter((n) => !runtime.includes(n)), surface?.types ?? []);
      if (message !== undefined) problems.push(message);
    }
    expect(problems.join('\n\n'), problems.join('\n\n')).toBe('');
  });

  it('docs/library.md documents every runtime export of every entry', () => {
    const page = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const undocumented = Object.entries(reviewed).flatMap(([entry, surface]) =>
      surface.runtime.filter((name) => !new RegExp(`\`${name}\\b`).test(page)).map((name) => `${entry}: ${name}`),
    );
    expect(undocumented, 'name each in docs/library.md (in `code`), with what it is for').toEqual([]);
  });
});
