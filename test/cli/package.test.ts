import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';
import { links, mentions, packageFiles, shippedDocs } from '../docs/doc-paths.js';

interface Packed {
  readonly filename: string;
  readonly files: ReadonlyArray<{ readonly path: string }>;
}

/**
 * `npm pack` into `dir` (scripts skipped: dist/ is built before the tests): the tarball, and the files
 * npm says it put in it.
 */
async function pack(dir: string): Promise<{ tarball: string; files: Set<string> }> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as Packed[];
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  return { tarball: path.join(dir, packed.filename), files: new Set(packed.files.map((f) => f.path)) };
}

describe('the packed package', () => {
  let dir: string;
  let tarball: string;
  let files: Set<string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'basis-packed-'));
    ({ tarball, files } = await pack(dir));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ships a LICENSE matching package.json, and names its repository', async () => {
    expect(files.has('LICENSE')).toBe(true);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { license?: string; repository?: { type?: string; url?: string } };
    expect(pkg.license).toBe('Apache-2.0');
    const license = await readFile(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/.+\.git$/) as unknown });
  });

  it('every source map in it carries its sources or points at files the package ships', async () => {
    const maps = [...files].filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const dangling: string[] = [];
    for (const map of maps) {
      const parsed = JSON.parse(await readFile(path.join(ROOT, map), 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: Array<string | null> };
      parsed.sources.forEach((source, index) => {
        if (typeof parsed.sourcesContent?.[index] === 'string') return;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(map), parsed.sourceRoot ?? '', source));
        if (!files.has(target)) dangling.push(`${map} → ${target}`);
      });
    }
    expect(dangling).toEqual([]);
  });

  it('ships the documentation, and every path in the package its pages name — as the files rule of test/docs/doc-paths.ts reads it', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    const rule = packageFiles(pkg.files);
    const packed = (p: string): boolean => files.has(p) || [...files].some((f) => f.startsWith(`${p.replace(/\/+$/, '')}/`));
    const named = new Set<string>();
    for (const doc of shippedDocs(ROOT)) {
      expect(files.has(doc), doc).toBe(true);
      const text = await readFile(path.join(ROOT, doc), 'utf8');
      for (const m of mentions(text)) named.add(m.path.replace(/[*?].*$/, '').replace(/\/+$/, ''));
      for (const l of links(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(l.target) || l.target.startsWith('#')) continue;
        named.add(path.posix.normalize(path.posix.join(path.posix.dirname(doc), l.target.split('#')[0] ?? '')));
      }
    }
    // The rule the unit test uses agrees with npm on every existing path the docs name (those it says are shipped are, and the others are not).
    const disagree = [...named].filter((p) => p !== '' && existsSync(path.join(ROOT, p)) && rule.includes(p) !== packed(p));
    expect(disagree).toEqual([]);
  });

  it("has no install script that would fail where it is installed: prepare (npm runs it for a tarball or git install once approved) does nothing in the unpacked package", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // npm's install scripts: the first three for every source, prepare for tarballs and git checkouts.
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => pkg.scripts[name] !== undefined);
    expect(installScripts).toEqual(['prepare']);
    await promisify(execFile)('tar', ['-xzf', tarball, '-C', dir]);
    const unpacked = path.join(dir, 'package');
    const before = await readFile(path.join(unpacked, 'dist', 'index.js'), 'utf8');
    // As npm runs it: `sh -c <script>` in the package's directory.
    const ran = await promisify(execFile)('sh', ['-c', pkg.scripts['prepare'] ?? ''], { cwd: unpacked }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? 1, stderr: error.stderr ?? '' }),
    );
    expect(ran).toEqual({ code: 0, stderr: expect.stringContaining('nothing to do') as unknown });
    expect(await readFile(path.join(unpacked, 'dist', 'index.js'), 'utf8')).toBe(before);
  });

  it('npm pack in a fresh clone (no node_modules/ yet) stops at once, saying to run npm ci first', async () => {
    // What a clone holds of the build's inputs, outside the repository: no node_modules/ on the way up.
    const clone = path.join(dir, 'fresh-clone');
    await mkdir(path.join(clone, 'scripts'), { recursive: true });
    for (const file of ['host', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/bundle-cli.mjs']) {
      await cp(path.join(ROOT, file), path.join(clone, file), { recursive: true });
    }
    const packed = await promisify(execFile)('npm', ['pack', '--dry-run'], { cwd: clone }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? 1, stderr: error.stderr ?? '' }),
    );
    expect(packed.code).not.toBe(0);
    expect(packed.stderr).toContain('build: typescript and esbuild (devDependencies that build dist/) are not installed: run `npm ci` first');
    expect(packed.stderr).not.toMatch(/Require stack|at Module\._resolveFilename/);
  });
});
