/**
 * Running from the TypeScript sources (the tests, `tsx` scripts) there is no compiled worker entry. A
 * worker cannot take `--import tsx` from its `execArgv` on Node 20, and registering tsx inside each
 * worker starts a loader thread and transforms every module again: ~440 ms per worker boot against
 * ~130 ms from dist/ — and the tests boot ~150 workers. So the entry is bundled once per process with
 * esbuild (the same sources, as one module; packages stay external) and each worker starts from that.
 * Built packages never come here: dist/ has its compiled `entry.js`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What this module uses of esbuild's API (a dev dependency: resolved only when running from sources). */
interface Esbuild {
  buildSync(options: {
    entryPoints: string[];
    bundle: true;
    format: 'esm';
    platform: 'node';
    target: string;
    packages: 'external';
    write: false;
    logLevel: 'silent';
  }): { outputFiles: Array<{ text: string }> };
}

const bundled = new Map<string, URL>();

/**
 * The file URL of `entry` (a `.ts` module's URL) bundled into one ES module. It is written under
 * `node_modules/.cache/basis-hooks/`, inside the package's tree so that the packages it imports resolve
 * from the package's own `node_modules`, and named by the hash of its text so that processes running
 * side by side share one file and an edited source makes a new one.
 */
export function sourceWorkerEntry(entry: URL): URL {
  const known = bundled.get(entry.href);
  if (known !== undefined) return known;
  const require = createRequire(entry);
  let esbuild: Esbuild;
  let esbuildDir: string;
  try {
    esbuildDir = dirname(require.resolve('esbuild/package.json'));
    esbuild = require('esbuild') as Esbuild;
  } catch (error) {
    throw new Error('running the component transport from its TypeScript sources needs esbuild (a dev dependency: npm install)', { cause: error });
  }
  const [output] = esbuild.buildSync({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  }).outputFiles;
  if (output === undefined) throw new Error(`esbuild produced no output for ${entry.href}`);
  const hash = createHash('sha256').update(output.text).digest('hex').slice(0, 16);
  const dir = join(esbuildDir, '..', '.cache', 'basis-hooks');
  const file = join(dir, `worker-entry-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Another process may be writing the same file: each writes its own and renames it into place.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, output.text);
    renameSync(temporary, file);
  }
  const url = pathToFileURL(file);
  bundled.set(entry.href, url);
  return url;
}
