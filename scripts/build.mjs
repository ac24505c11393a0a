/**
 * `npm run build [-- --force]`: dist/ from host/ (tsc), the generated WIT types copied beside it, and
 * the bundled command-line entries (scripts/bundle-cli.mjs).
 *
 * It is skipped when dist/ was built from exactly these inputs — the hash of their contents is kept in
 * dist/.build-stamp, written last, so a build that failed half-way is never taken for a fresh one. The
 * `prepare` script builds at `npm install`, and `npm test`, `npm run bench`, the demo and the vitest
 * suite all build first: only the first of them should pay for it. `--force` rebuilds anyway.
 *
 * The package ships this script, because `prepare` runs it: npm runs `prepare` for an install from a
 * tarball or a git checkout once the user approves the package's install scripts. A git checkout has
 * the sources and builds; an unpacked tarball has no host/ — its dist/ is already built — and this
 * does nothing there instead of failing the install.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');

/** Everything dist/ is made from: the sources, the compiler settings, the build scripts, the locked dependencies (zod is bundled into the command-line entries). */
const INPUTS = ['host', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/bundle-cli.mjs', 'package-lock.json'];

/** Files under `path` (or `path` itself), sorted, as paths relative to the repository. */
function files(path) {
  const absolute = join(ROOT, path);
  try {
    return readdirSync(absolute, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if (error.code === 'ENOTDIR') return [path];
    throw error;
  }
}

/** The hash of every input's path and contents. */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file))).update('\0');
  return hash.digest('hex');
}

/** dist/ was built from the inputs as they are now. */
export function libraryIsFresh() {
  try {
    return readFileSync(STAMP, 'utf8').trim() === inputsHash();
  } catch {
    return false;
  }
}

/** Run a step of the build; a failing step ends the build with its exit code. */
function step(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The build's tools (devDependencies), resolved before anything is deleted. In a fresh clone nothing
 * is installed yet, and `npm pack` (whose `prepare` runs this) would otherwise end in a stack trace:
 * say what to run instead, and stop.
 */
function buildTools() {
  const require = createRequire(import.meta.url);
  const missing = [];
  const tools = {};
  for (const [name, specifier] of [['typescript', 'typescript/bin/tsc'], ['esbuild', 'esbuild']]) {
    try {
      tools[name] = require.resolve(specifier);
    } catch (error) {
      if (error?.code !== 'MODULE_NOT_FOUND') throw error;
      missing.push(name);
    }
  }
  if (missing.length > 0) {
    process.stderr.write(
      `build: ${missing.join(' and ')} (devDependencies that build dist/) ${missing.length === 1 ? 'is' : 'are'} not installed: run \`npm ci\` first ` +
        '(a fresh clone has no node_modules/), then `npm run build`, `npm pack` or `npm test` again\n',
    );
    process.exit(1);
  }
  return tools;
}

/** Build dist/ from scratch (stale files of deleted sources do not survive) and stamp it. */
export function buildLibrary() {
  const { typescript: tsc } = buildTools();
  const hash = inputsHash();
  rmSync(DIST, { recursive: true, force: true });
  step(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
  // The generated WIT types are declaration files tsc does not copy.
  cpSync(join(ROOT, 'host/engine/wasi/generated'), join(DIST, 'engine/wasi/generated'), { recursive: true });
  cpSync(join(ROOT, 'host/transports/component/generated'), join(DIST, 'transports/component/generated'), { recursive: true });
  step(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs')]);
  writeFileSync(STAMP, `${hash}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(join(ROOT, 'host'))) {
    process.stderr.write('build: no sources here (an installed package ships dist/ built): nothing to do\n');
    process.exit(0);
  }
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--force');
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown argument ${unknown.map((a) => JSON.stringify(a)).join(', ')} (usage: npm run build [-- --force])\n`);
    process.exit(2);
  }
  if (args.includes('--force') || !libraryIsFresh()) buildLibrary();
  else process.stderr.write('build: dist/ is up to date with its sources (npm run build -- --force rebuilds it)\n');
}
