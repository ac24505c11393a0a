/**
 * The documentation the package ships (README.md and docs/**): every path it names is in the package
 * or is a link to the repository, every relative link resolves (its anchor too), and every link into
 * the repository names a file or directory that is there. CONTRIBUTING.md is not shipped, but its
 * links must resolve as well. A unit test: it reads package.json's `files` and the pages (the packed
 * list itself is compared with this rule in test/cli/package.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/guests.js';
import { starterManifest } from '../../host/kit/templates/index.js';
import { readmeText } from '../../host/kit/templates/readme.js';
import { REPOSITORY, anchors, checkDoc, checkFile, links, markdownFiles, mentions, packageFiles, shippedDocs as shippedDocsOf, slug } from './doc-paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; repository: { url: string } };
const shipped = packageFiles(pkg.files);

/**
 * Pages of issue 24 being written on other branches, linked from these docs before they land (the
 * link is checked in full once the page exists): remove each entry when its page is merged.
 */
const IN_FLIGHT: string[] = [];

const shippedDocs = (): string[] => shippedDocsOf(ROOT);

describe('the shipped documentation', () => {
  it('is in the package: docs/ is in package.json files, and the repository is the one the docs link to', () => {
    expect(pkg.files).toContain('docs');
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(shippedDocs().length).toBeGreaterThan(5);
    for (const doc of shippedDocs()) expect(shipped.includes(doc), doc).toBe(true);
  });

  it.each(shippedDocs())('%s names only paths in the package or links to the repository, and its links resolve', (doc) => {
    expect(checkFile(doc, { root: ROOT, shipped, inFlight: IN_FLIGHT })).toEqual([]);
  });

  it('CONTRIBUTING.md (not shipped) has links that resolve', () => {
    expect(existsSync(join(ROOT, 'CONTRIBUTING.md'))).toBe(true);
    expect(checkFile('CONTRIBUTING.md', { root: ROOT })).toEqual([]);
  });
});

describe('the README of a starter hook (basis-hooks init)', () => {
  it.each(['js', 'ts', 'c', 'rust', 'assemblyscript'] as const)('%s: its guides are links into the repository, and they exist there', (lang) => {
    const text = readmeText(starterManifest({ lang, event: 'pre_tool_use', name: 'my-hook', engine: 'quickjs', flavour: 'std' }), 'pre_tool_use');
    expect(links(text).filter((l) => l.target.startsWith(REPOSITORY)).length).toBeGreaterThanOrEqual(2);
    // It lives in the user's hook directory, beside the files it names (its own tsconfig.json, hook.json): only its links are checked.
    expect(checkDoc('my-hook/README.md', text, { root: ROOT })).toEqual([]);
  });
});

describe("the README's first screen", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const firstScreen = readme.split('\n').slice(0, 60).join('\n');

  it('says how to install it, links the Claude Code page, and every page of docs/ is reached from it', () => {
    expect(firstScreen).toContain('npm install basis-hooks');
    const targets = links(firstScreen).map((l) => l.target);
    expect(targets.some((t) => /claude-code/.test(t))).toBe(true);
    // Reached, not linked: a page the first screen links may lead on (the agent pages from the
    // clients page, the host-call table from the sandbox page); none may be an orphan.
    const reached = new Set<string>();
    const queue = targets.map((t) => t.split('#')[0] ?? '').filter((t) => t.startsWith('docs/'));
    while (queue.length > 0) {
      const page = queue.pop() as string;
      if (reached.has(page) || !page.endsWith('.md') || !existsSync(join(ROOT, page))) continue;
      reached.add(page);
      for (const l of links(readFileSync(join(ROOT, page), 'utf8'))) {
        const target = l.target.split('#')[0] ?? '';
        if (target === '' || /^[a-z]+:/.test(target)) continue;
        queue.push(posix.normalize(posix.join(posix.dirname(page), target)));
      }
    }
    for (const page of markdownFiles(ROOT, 'docs')) expect(reached.has(page), page).toBe(true);
  });
});

describe('the check itself', () => {
  const root = ROOT;
  const check = (text: string, doc = 'docs/x.md'): string[] => checkDoc(doc, text, { root, shipped }).map((p) => p.problem);

  it("computes GitHub's anchors", () => {
    expect(slug('`basis-hooks mcp`: a gateway any MCP client can use')).toBe('basis-hooks-mcp-a-gateway-any-mcp-client-can-use');
    expect(slug('Claude Code hook scripts inside a basis chain: `dialect: "claude-code"`')).toBe('claude-code-hook-scripts-inside-a-basis-chain-dialect-claude-code');
    expect(slug('Operations: pinned hooks, armed checks')).toBe('operations-pinned-hooks-armed-checks');
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n### B — c\n')]).toEqual(['a', 'a-1', 'b--c']);
  });

  it('finds repository paths in prose and code, but not in links to the repository nor in other paths', () => {
    const text = 'see `host/runner/runner.ts:12`, test/fixtures/hostile/. and [`scripts/bench.ts`](https://github.com/basis-hooks/basis-hooks/blob/main/scripts/bench.ts)\n' + '```\nnode dist/cli/main.js ./node_modules/basis-hooks/schema/x.json hooks/guard.wasm\n```';
    expect(mentions(text).map((m) => m.path)).toEqual(['host/runner/runner.ts', 'test/fixtures/hostile/', 'dist/cli/main.js']);
  });

  it('accepts what the package ships and links into the repository', () => {
    expect(check('`wit/hook.wit`, [schema](../schema/hooks.schema.json), [x](https://github.com/basis-hooks/basis-hooks/tree/main/test/fixtures/hostile), [y](https://example.com/a/b)')).toEqual([]);
  });

  it('reports a path the package does not ship, a path that does not exist, and bad links', () => {
    expect(check('`scripts/bench/limits.ts`')).toEqual([expect.stringContaining('not in the package')]);
    expect(check('`host/no-such-file.ts`')).toEqual([expect.stringContaining('does not exist')]);
    expect(check('[a](no-such-page.md)')).toEqual([expect.stringContaining('does not exist')]);
    expect(check('[a](../README.md#no-such-heading)')).toEqual([expect.stringContaining('is not a heading')]);
    expect(check('[a](../CONTRIBUTING.md)')).toEqual([expect.stringContaining('not in the package')]);
    expect(check(`[a](${REPOSITORY}/blob/main/host/nothing.ts)`)).toEqual([expect.stringContaining('does not exist in the repository')]);
    expect(check(`[a](${REPOSITORY}/blob/main/host)`)).toEqual([expect.stringContaining('is a directory')]);
    expect(check(`[a](${REPOSITORY}/tree/main/dist/cli)`)).toEqual([expect.stringContaining('not in the repository')]);
  });

  it('accepts a link to a page in flight only while it is missing, and checks it once it exists', () => {
    const inFlight = (text: string, pages: string[]): string[] => checkDoc('docs/x.md', text, { root, shipped, inFlight: pages }).map((p) => p.problem);
    expect(inFlight('[a](future-page.md)', ['docs/future-page.md'])).toEqual([]);
    expect(inFlight('[a](future-page.md)', [])).toEqual([expect.stringContaining('does not exist')]);
    expect(inFlight('[a](../README.md#no-such-heading)', ['README.md'])).toEqual([expect.stringContaining('is not a heading')]);
  });

  it('reads the files rule as npm does for paths and negations, and refuses a glob it cannot read', () => {
    const files = packageFiles(['dist', 'guest-examples/js/glue', '!dist/.build-stamp']);
    expect(files.includes('dist/index.js')).toBe(true);
    expect(files.includes('dist/.build-stamp')).toBe(false);
    expect(files.includes('guest-examples')).toBe(true);
    expect(files.includes('guest-examples/js/guard.js')).toBe(false);
    expect(files.includes('README.md')).toBe(true);
    expect(() => packageFiles(['dist/**/*.js'])).toThrow(/glob/);
  });
});
