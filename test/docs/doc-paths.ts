/**
 * What a Markdown page names: its links (inline, reference definitions, autolinks), the anchors its
 * headings define, and the repository paths it mentions in text or code. Used by shipped-docs.test.ts
 * to hold every page shipped in the package to one rule: a path it names is in the package, or it is a
 * link to the repository; a relative link resolves, anchor included.
 *
 * Pure functions over text (and, for the checks, the file system under a root): no process is spawned.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

/** The repository the package names (package.json `repository`), as links to it are spelled. */
export const REPOSITORY = 'https://github.com/basis-hooks/basis-hooks';

/** The top-level entries of the repository a mention of a path starts with (the rest is prose). */
const TOP_DIRS = ['adapters', 'bench', 'dist', 'docs', 'examples', 'guest-examples', 'host', 'schema', 'scripts', 'test', 'wit', '.ci', '.cache'];
const TOP_FILES = ['package.json', 'package-lock.json', 'README.md', 'CONTRIBUTING.md', 'LICENSE', 'vitest.config.ts', 'tsconfig.json', 'tsconfig.build.json'];

/** Directories that exist in a checkout but not in the repository (built or cached). */
const NOT_IN_REPOSITORY = ['node_modules', 'dist', '.cache', '.scratch'];

export interface Link {
  readonly target: string;
  readonly line: number;
}

export interface Mention {
  readonly path: string;
  readonly line: number;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const INLINE_LINK = /\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm;
const AUTOLINK = /<(https?:\/\/[^>\s]+)>/g;

/** Every link target in `text`: inline links and images, reference definitions, autolinks. */
export function links(text: string): Link[] {
  const out: Link[] = [];
  for (const re of [INLINE_LINK, REFERENCE_DEFINITION, AUTOLINK]) {
    for (const m of text.matchAll(re)) out.push({ target: m[1] ?? '', line: lineAt(text, m.index) });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a page defines: one per heading (outside code blocks, GitHub's -1, -2 for repeats), and explicit ids. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f !== null) {
      const marker = f[1] ?? '';
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h !== null) {
      const base = slug(h[1] ?? '');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1] ?? '');
  }
  return out;
}

const PATH_CHARS = String.raw`[^\s\x60'"()<>\[\]{},;|]`;
const MENTION = new RegExp(
  String.raw`(?<![\w.\/@$~-])((?:\.\/)?(?:${TOP_DIRS.map((d) => d.replace('.', '\\.')).join('|')})\/${PATH_CHARS}*|(?:${TOP_FILES.map((f) => f.replace(/\./g, '\\.')).join('|')})(?![\w.-]))`,
  'g',
);

/**
 * The repository paths `text` mentions outside links to the repository: in prose, code spans and code
 * blocks alike. A link to the repository is its own evidence (its target is checked), so its whole
 * text is left out; of a relative link, the target is left out (it is checked as a link) and the text
 * is read.
 */
export function mentions(text: string): Mention[] {
  const blanked = text
    .replace(/\[((?:[^\]\\]|\\.)*)\]\(\s*<?https?:\/\/[^)]*\)/g, (all) => all.replace(/[^\n]/g, ' '))
    .replace(INLINE_LINK, (all) => all.replace(/[^\n]/g, ' '))
    .replace(REFERENCE_DEFINITION, (all) => all.replace(/[^\n]/g, ' '))
    .replace(/https?:\/\/\S+/g, (all) => all.replace(/[^\n]/g, ' '));
  const out: Mention[] = [];
  for (const m of blanked.matchAll(MENTION)) {
    const path = (m[1] ?? '')
      .replace(/^\.\//, '')
      .replace(/#.*$/, '')
      .replace(/:\d+$/, '')
      .replace(/[.:…]+$/, '');
    out.push({ path, line: lineAt(blanked, m.index) });
  }
  return out;
}

/** The `files` rule of package.json, for the entries this package uses: paths and `!path` negations. */
export interface PackageFiles {
  /** `path` (a file or a directory, relative to the package root) is shipped, whole or in part. */
  includes(path: string): boolean;
}

/** Files npm ships whatever `files` says. */
const ALWAYS_SHIPPED = [/^package\.json$/, /^README(\.[^/]*)?$/i, /^LICEN[CS]E(\.[^/]*)?$/i];

export function packageFiles(files: readonly string[]): PackageFiles {
  for (const entry of files) {
    if (/[*?[\]{}]/.test(entry)) throw new Error(`package.json files: "${entry}" is a glob; this check only understands paths and !paths — extend it`);
  }
  const strip = (p: string): string => p.replace(/^\.\//, '').replace(/\/+$/, '');
  const positive = files.filter((f) => !f.startsWith('!')).map(strip);
  const negative = files.filter((f) => f.startsWith('!')).map((f) => strip(f.slice(1)));
  const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);
  return {
    includes(raw: string): boolean {
      const path = strip(raw);
      if (ALWAYS_SHIPPED.some((re) => re.test(path))) return true;
      if (negative.some((n) => under(path, n))) return false;
      // The path is under an entry, or (a directory) holds one.
      return positive.some((p) => under(path, p) || under(p, path));
    },
  };
}

/** Every Markdown file under `dir` (relative to `root`), sorted. */
export function markdownFiles(root: string, dir: string): string[] {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** The pages the package ships: README.md and every page under docs/. */
export function shippedDocs(root: string): string[] {
  return ['README.md', ...markdownFiles(root, 'docs')];
}

export interface Problem {
  readonly doc: string;
  readonly line: number;
  readonly problem: string;
}

export interface CheckOptions {
  /** The repository checkout the docs are read from. */
  readonly root: string;
  /**
   * Pages another branch is writing, which a page may link to before they land: a link to one is
   * accepted while the page is missing, and checked like any other (anchor included) once it exists.
   */
  readonly inFlight?: readonly string[];
  /** What the package ships; absent for a page that is not shipped (its links must still resolve). */
  readonly shipped?: PackageFiles;
}

/** The part of a path before its first glob character (`test/transports/*\/` → `test/transports`). */
function beforeGlob(path: string): string {
  const i = path.search(/[*?]/);
  return (i < 0 ? path : path.slice(0, i)).replace(/\/+$/, '');
}

function anchorProblem(root: string, file: string, anchor: string): string | null {
  if (anchor === '' || !file.endsWith('.md')) return null;
  const defined = anchors(readFileSync(join(root, file), 'utf8'));
  return defined.has(decodeURIComponent(anchor)) ? null : `#${anchor} is not a heading of ${file}`;
}

/** What is wrong with the page `doc` (a path relative to `root`): every problem, with its line. */
export function checkDoc(doc: string, text: string, options: CheckOptions): Problem[] {
  const { root, shipped } = options;
  const problems: Problem[] = [];
  const report = (line: number, problem: string): void => void problems.push({ doc, line, problem });
  const docDir = posix.dirname(doc);
  for (const { target, line } of links(text)) {
    if (target.startsWith(`${REPOSITORY}/`) || target === REPOSITORY) {
      const m = /^https:\/\/github\.com\/basis-hooks\/basis-hooks\/(blob|tree)\/main\/([^#?]+)(?:#(.*))?$/.exec(target);
      if (m === null) {
        if (target !== REPOSITORY && !/\/(issues|pulls|releases)(\/|$)/.test(target)) report(line, `${target}: a link into the repository is ${REPOSITORY}/blob/main/<file> or /tree/main/<directory>`);
        continue;
      }
      const [, kind, path = '', anchor = ''] = m;
      const clean = path.replace(/\/+$/, '');
      const absolute = join(root, clean);
      if (NOT_IN_REPOSITORY.some((d) => clean === d || clean.startsWith(`${d}/`))) report(line, `${target}: ${clean} is built or cached in a checkout, not in the repository`);
      else if (!existsSync(absolute)) report(line, `${target}: ${clean} does not exist in the repository`);
      else if (kind === 'blob' && statSync(absolute).isDirectory()) report(line, `${target}: ${clean} is a directory (link it with /tree/main/)`);
      else if (kind === 'tree' && !statSync(absolute).isDirectory()) report(line, `${target}: ${clean} is a file (link it with /blob/main/)`);
      else {
        const p = anchorProblem(root, clean, anchor);
        if (p !== null) report(line, p);
      }
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // another site, mailto:
    const [pathPart = '', anchor = ''] = target.split('#', 2);
    const file = pathPart === '' ? doc : posix.normalize(posix.join(docDir, decodeURI(pathPart)));
    if (file.startsWith('../') || file === '..') {
      report(line, `${target}: leaves the repository`);
      continue;
    }
    if (!existsSync(join(root, file))) {
      if (!(options.inFlight ?? []).includes(file)) report(line, `${target}: ${file} does not exist`);
      continue;
    }
    if (shipped !== undefined && !shipped.includes(file)) report(line, `${target}: ${file} is not in the package (link it as ${REPOSITORY}/blob/main/${file})`);
    const p = anchorProblem(root, file, anchor);
    if (p !== null) report(line, p);
  }
  if (shipped !== undefined) {
    for (const { path, line } of mentions(text)) {
      const base = beforeGlob(path);
      if (base === '' || !existsSync(join(root, base))) report(line, `${path}: names a path that does not exist`);
      else if (!shipped.includes(base)) report(line, `${path}: not in the package — make it a link, ${REPOSITORY}/${statSync(join(root, base)).isDirectory() ? 'tree' : 'blob'}/main/${base}`);
    }
  }
  return problems;
}

/** `checkDoc` for a file under `root`. */
export function checkFile(doc: string, options: CheckOptions): Problem[] {
  return checkDoc(doc, readFileSync(join(options.root, doc), 'utf8'), options);
}
