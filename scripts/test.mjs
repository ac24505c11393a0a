/**
 * `npm test [-- <vitest arguments>]`, after `pretest` built dist/: the guests are built and the whole
 * tree typechecked side by side — the guest builder keeps one core busy for most of its run, tsc the
 * other — then the vitest suite runs, given any arguments passed through. Either failing stops the
 * run with its exit code before the suite starts.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const resolve = createRequire(import.meta.url).resolve;

/** Run a Node entry point from the repository root with our stdio; resolve to its exit code. */
function node(args) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

const tsx = join(dirname(resolve('tsx/package.json')), 'dist/cli.mjs');
const [guests, types] = await Promise.all([
  node([tsx, 'scripts/build-guests.ts']),
  node([resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']),
]);
if (guests !== 0) process.stderr.write(`npm test: building the guests failed (exit ${guests})\n`);
if (types !== 0) process.stderr.write(`npm test: the typecheck failed (exit ${types})\n`);
if (guests !== 0 || types !== 0) process.exit(guests !== 0 ? guests : types);

process.exitCode = await node([join(dirname(resolve('vitest/package.json')), 'vitest.mjs'), 'run', ...process.argv.slice(2)]);
