import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCases } from '../../host/cases/parse.js';
import { HookManifest } from '../../host/kit/manifest.js';
import { starterCasesText } from '../../host/kit/templates/cases.js';
import { kit, ROOT, scratchDir } from './kit.js';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir();
});
afterAll(async () => {
  await scratch.dispose();
});

const GLUE: Record<string, Record<string, string>> = {
  js: {},
  ts: {},
  c: { 'glue/basis_hook.h': 'guest-examples/c/glue/basis_hook.h', 'glue/basis_hook.c': 'guest-examples/c/glue/basis_hook.c' },
  rust: { 'glue/basis_hook.rs': 'guest-examples/rust/glue/basis_hook.rs' },
  assemblyscript: { 'glue/hook.ts': 'guest-examples/assemblyscript/glue/hook.ts', 'glue/export-names.mjs': 'guest-examples/assemblyscript/glue/export-names.mjs' },
};

describe('basis-hooks init', () => {
  for (const lang of Object.keys(GLUE)) {
    for (const event of ['pre_tool_use', 'post_tool_use'] as const) {
      it(`${lang} ${event}: a valid manifest, the package's glue byte for byte, and the starter cases`, async () => {
        const dir = join(scratch.path, `${lang}-${event}`);
        const result = await kit(['init', dir, '--lang', lang, '--event', event, '--name', 'starter']);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        const manifest = HookManifest.parse(JSON.parse(await readFile(join(dir, 'hook.json'), 'utf8')));
        expect(manifest).toMatchObject({ name: 'starter', lang, event });
        for (const [copy, original] of Object.entries(GLUE[lang] ?? {})) {
          expect(await readFile(join(dir, copy), 'utf8'), copy).toBe(await readFile(join(ROOT, original), 'utf8'));
        }
        const cases = await readFile(join(dir, 'cases.jsonl'), 'utf8');
        expect(cases).toBe(starterCasesText(event));
        const parsed = parseCases(cases, 'cases.jsonl');
        expect(parsed.ok).toBe(true);
        // Both decisions of the policy and the off-event call are covered.
        const decisions = parsed.ok ? parsed.cases.map((c) => ('decision' in c.case.expect ? c.case.expect.decision : 'failure')) : [];
        expect(new Set(decisions)).toEqual(new Set(['allow', event === 'pre_tool_use' ? 'deny' : 'replace']));
        expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain(`basis-hooks build .`);
      });
    }
  }

  it('defaults to JavaScript on QuickJS, named after the directory, at pre_tool_use', async () => {
    const dir = join(scratch.path, 'no-rm');
    const result = await kit(['init', dir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'hook.json'), 'utf8'))).toEqual({
      manifest: 1,
      name: 'no-rm',
      event: 'pre_tool_use',
      lang: 'js',
      source: 'hook.js',
      engine: 'quickjs',
    });
    expect(result.stdout).toContain('next:\n');
    const help = await kit(['init', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/The default is js on quickjs/);
    // Each starter covers the one event it is made for: the help says which does what.
    expect(help.stdout).toContain('for one event');
    expect(help.stdout).toMatch(/at pre_tool_use,\s+the default, it denies "rm -rf \/"; with --event post_tool_use it redacts GitHub tokens instead/);
  });

  it('refuses a directory that is not empty (exit 2) and leaves it alone; --force writes into it', async () => {
    const dir = join(scratch.path, 'busy');
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    const refused = await kit(['init', dir, '--lang', 'c']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/init_refused: .*busy is not empty.*--force/);
    expect(await readdir(dir)).toEqual(['notes.txt']);

    const forced = await kit(['init', dir, '--lang', 'c', '--force', '--name', 'busy']);
    expect(forced.code).toBe(0);
    expect(existsSync(join(dir, 'hook.c'))).toBe(true);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses an unknown language with exit 2, listing the languages', async () => {
    const dir = join(scratch.path, 'cobol');
    const result = await kit(['init', dir, '--lang', 'cobol']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown language "cobol" (one of: js, ts, c, rust, assemblyscript, cedar, cel)');
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses an unknown event, an engine for a compiled language, a bad name and a missing directory', async () => {
    const dir = join(scratch.path, 'refusals');
    const cases: Array<[string[], RegExp]> = [
      [['init', dir, '--event', 'mid_tool_use'], /unknown event "mid_tool_use" \(one of: pre_tool_use, post_tool_use\)/],
      [['init', dir, '--lang', 'c', '--engine', 'quickjs'], /--engine applies to --lang js or ts only/],
      [['init', dir, '--lang', 'js', '--flavour', 'nostd'], /--flavour applies to --lang rust only/],
      [['init', dir, '--name', 'no spaces please'], /init_refused: invalid name "no spaces please"/],
      [['init', join(scratch.path, 'Not A Name')], /cannot name a hook; pass --name/],
      [['init'], /<dir> is required/],
    ];
    for (const [args, message] of cases) {
      const result = await kit(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(dir)).toBe(false);
  });
});
