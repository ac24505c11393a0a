/**
 * What `npm install basis-hooks` puts into an empty app, package by package: the repository is packed
 * (`npm pack`, as it would be published), the tarball installed into a new app under the system's
 * temp directory, and its node_modules measured. `test/cli/install.test.ts` uses the same functions.
 *
 *   npx tsx scripts/install-size.ts            # basis-hooks alone, then with each optional package
 *   npx tsx scripts/install-size.ts --json     # the same as one JSON object
 *
 * Sizes are disk usage (the blocks a file holds, as `du` counts them), in MiB like `du -sh`; the
 * apparent size (the bytes in the files) is given beside. The npm cache makes a second run fast, and
 * the registry must be reachable for what the cache lacks.
 */
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** One installed package (a directory with a package.json under some node_modules/). */
export interface PackageSize {
  readonly name: string;
  readonly version: string;
  /** Its directory, relative to the app (`node_modules/zod`, `node_modules/a/node_modules/b`). */
  readonly dir: string;
  /** Disk usage of its files, not counting packages nested in its own node_modules/. */
  readonly disk: number;
  readonly apparent: number;
}

/** Everything under an app's node_modules/. */
export interface InstallSize {
  /** Disk usage of all of node_modules/ (npm's own files and `.bin` links included). */
  readonly disk: number;
  readonly apparent: number;
  /** Largest first. */
  readonly packages: readonly PackageSize[];
}

interface Tally {
  disk: number;
  apparent: number;
}

/** Add up `dir`'s files into `tally`, handing each package found in a node_modules/ to `onPackage`. */
async function walk(dir: string, tally: Tally, onPackage: (dir: string) => Promise<void>, inNodeModules: boolean): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const stat = await lstat(full);
    tally.disk += stat.blocks * 512;
    tally.apparent += stat.size;
    if (!entry.isDirectory()) continue;
    if (inNodeModules && entry.name.startsWith('@')) {
      await walk(full, tally, onPackage, true);
    } else if (inNodeModules && !entry.name.startsWith('.')) {
      // A package: it is measured on its own (its directory's own blocks were counted above).
      tally.disk -= stat.blocks * 512;
      tally.apparent -= stat.size;
      await onPackage(full);
    } else {
      await walk(full, tally, onPackage, entry.name === 'node_modules');
    }
  }
}

/** Measure `app/node_modules`: its total, and each package's share. */
export async function measureInstall(app: string): Promise<InstallSize> {
  const packages: PackageSize[] = [];
  const measurePackage = async (dir: string): Promise<void> => {
    const own = await lstat(dir);
    const tally: Tally = { disk: own.blocks * 512, apparent: own.size };
    await walk(dir, tally, measurePackage, false);
    let manifest: { name?: string; version?: string } = {};
    try {
      manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      // Not a package (a stray directory): still measured, under its path.
    }
    const rel = path.relative(app, dir);
    packages.push({ name: manifest.name ?? rel, version: manifest.version ?? '', dir: rel, disk: tally.disk, apparent: tally.apparent });
  };
  const top = path.join(app, 'node_modules');
  const rest: Tally = { disk: 0, apparent: 0 };
  await walk(top, rest, measurePackage, true);
  const sum = (key: 'disk' | 'apparent'): number => packages.reduce((total, p) => total + p[key], rest[key]);
  packages.sort((a, b) => b.disk - a.disk);
  return { disk: sum('disk'), apparent: sum('apparent'), packages };
}

/** `npm pack` the repository into `dest` (scripts skipped: dist/ must be built); the tarball's path. */
export async function packRepository(dest: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  return path.join(dest, packed.filename);
}

/** A new, empty app (a package.json and nothing else) in a new directory under `parent`. */
export async function emptyApp(parent: string = tmpdir()): Promise<string> {
  const app = await mkdtemp(path.join(parent, 'basis-app-'));
  await writeFile(path.join(app, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  return app;
}

/**
 * `npm install <specs>` in `app`, as a user would run it (the cache is preferred over the registry;
 * no audit or funding requests). Resolves with what npm printed; rejects when it fails.
 */
export async function npmInstall(app: string, specs: readonly string[]): Promise<{ readonly stdout: string; readonly stderr: string }> {
  await mkdir(app, { recursive: true });
  return run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs], { cwd: app, maxBuffer: 64 * 1024 * 1024 });
}

/** The range package.json gives a package (its devDependencies, where the repository pins what it tests). */
export async function declaredRange(name: string): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const range = pkg['peerDependencies']?.[name] ?? pkg['dependencies']?.[name] ?? pkg['devDependencies']?.[name];
  if (range === undefined) throw new Error(`package.json does not name ${name}`);
  return range;
}

/** MiB with one decimal, as `du -sh` rounds. */
export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What is installed on top of basis-hooks in each measured app, and why. */
const EXTRAS: ReadonlyArray<{ readonly label: string; readonly packages: readonly string[] }> = [
  { label: 'component hooks', packages: ['@bytecodealliance/jco-transpile'] },
  { label: 'the MCP gateway', packages: ['@modelcontextprotocol/sdk'] },
  { label: 'Cedar policies', packages: ['@cedar-policy/cedar-wasm'] },
  {
    label: 'OpenTelemetry SDK and OTLP exporters',
    packages: ['@opentelemetry/sdk-trace', '@opentelemetry/sdk-metrics', '@opentelemetry/resources', '@opentelemetry/semantic-conventions', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http'],
  },
  { label: 'JWT verification (jose)', packages: ['jose'] },
];

function table(size: InstallSize, limit: number): string {
  const rows = size.packages.slice(0, limit).map((p) => `| ${p.name} | ${p.version} | ${mib(p.disk)} | ${mib(p.apparent)} |`);
  const others = size.packages.slice(limit);
  if (others.length > 0) {
    const disk = others.reduce((t, p) => t + p.disk, 0);
    const apparent = others.reduce((t, p) => t + p.apparent, 0);
    rows.push(`| ${others.length} more | | ${mib(disk)} | ${mib(apparent)} |`);
  }
  return ['| package | version | disk | apparent |', '| --- | --- | ---: | ---: |', ...rows, `| **node_modules** (${size.packages.length} packages) | | **${mib(size.disk)}** | ${mib(size.apparent)} |`].join('\n');
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const work = await mkdtemp(path.join(tmpdir(), 'basis-install-size-'));
  try {
    const tarball = await packRepository(work);
    const base = await emptyApp(work);
    await npmInstall(base, [tarball]);
    const alone = await measureInstall(base);
    const added: Array<{ label: string; packages: string[]; size: InstallSize; added: number }> = [];
    for (const extra of EXTRAS) {
      const app = await emptyApp(work);
      const specs = await Promise.all(extra.packages.map(async (name) => `${name}@${await declaredRange(name)}`));
      await npmInstall(app, [tarball, ...specs]);
      const size = await measureInstall(app);
      added.push({ label: extra.label, packages: specs, size, added: size.disk - alone.disk });
    }
    if (json) {
      process.stdout.write(`${JSON.stringify({ basis_hooks: alone, with: added })}\n`);
      return;
    }
    const lines = [`npm install basis-hooks (npm ${(await run('npm', ['--version'])).stdout.trim()}, node ${process.version}): ${mib(alone.disk)}`, '', table(alone, 12), ''];
    lines.push('| with | npm install | adds | node_modules |', '| --- | --- | ---: | ---: |');
    for (const a of added) lines.push(`| ${a.label} | ${a.packages.join(' ')} | ${mib(a.added)} | ${mib(a.size.disk)} |`);
    for (const a of added) lines.push('', `With ${a.label}:`, '', table(a.size, 6));
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
