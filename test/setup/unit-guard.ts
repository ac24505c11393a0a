/**
 * Setup file of the `unit` project (see test/layers.ts): a unit test starts no process, no worker
 * thread and loads no built guest. Here, in the test's own process, the calls that would do so throw
 * (`child_process.*`, `new Worker`, reading a `.wasm` under `guest-examples/<lang>/build/` or a file
 * of the built `dist/`, which this layer does not rebuild first) and each
 * attempt is also recorded, so a file that catches the error (a transport turns a failed spawn into
 * a hook failure, and a fail-closed test would still pass) fails anyway, in this file's `afterAll`,
 * naming what it tried. The static half of this check is test/layers.test.ts.
 *
 * `BASIS_HOOKS_UNIT_GUARD_LOG=<file>` appends each attempt there as a JSON line with its stack: an
 * attempt made in the background (a transport's probe) may surface in the next file of the worker,
 * and the stack names the code that made it.
 */
import childProcess from 'node:child_process';
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import workerThreads from 'node:worker_threads';
import { afterAll, expect } from 'vitest';

/**
 * Patched once per worker process (with `isolate: false` this file runs again before every test
 * file, and the patches stay); the attempts are kept on the process so each file's check sees them.
 */
const STATE = Symbol.for('basis-hooks.unit-guard');
const state = globalThis as typeof globalThis & { [STATE]?: string[] };
const patched = state[STATE] !== undefined;
const attempts: string[] = (state[STATE] ??= []);
const RECORD = process.env['BASIS_HOOKS_UNIT_GUARD_LOG'];

function refuse(what: string): Error {
  const file = expect.getState().testPath ?? '(unknown file)';
  attempts.push(what);
  if (RECORD !== undefined) fs.appendFileSync(RECORD, `${JSON.stringify({ file, what, stack: new Error().stack?.split('\n').slice(2, 14) })}\n`);
  return new Error(`unit layer: ${what} — a unit test starts no process, no worker and loads no built guest; list ${file} under integration (or e2e) in test/layers.ts`);
}

function patch(): void {
  const cp = childProcess as unknown as Record<string, unknown>;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    cp[name] = () => {
      throw refuse(`child_process.${name}()`);
    };
  }
  const wt = workerThreads as unknown as Record<string, unknown>;
  wt['Worker'] = class RefusedWorker {
    constructor(entry: unknown) {
      throw refuse(`new Worker(${String(entry)})`);
    }
  };

  const BUILT_GUEST = /[\\/]guest-examples[\\/][^\\/]+[\\/]build[\\/].*\.wasm$/;
  const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
  function guarded<F extends (...args: never[]) => unknown>(name: string, original: F): F {
    return ((...args: Parameters<F>) => {
      const arg = args[0] as unknown;
      const path = arg instanceof URL ? (arg.protocol === 'file:' ? fileURLToPath(arg) : '') : typeof arg === 'string' ? arg : '';
      if (BUILT_GUEST.test(path)) throw refuse(`${name}(${path}) (a built guest)`);
      if (path.startsWith(DIST)) throw refuse(`${name}(${path}) (the built dist/, which the unit layer does not rebuild first)`);
      return original(...args);
    }) as F;
  }
  const f = fs as unknown as Record<string, (...args: never[]) => unknown>;
  const fp = fsPromises as unknown as Record<string, (...args: never[]) => unknown>;
  for (const name of ['readFileSync', 'readFile', 'openSync', 'open', 'createReadStream']) f[name] = guarded(`fs.${name}`, f[name]!);
  for (const name of ['readFile', 'open']) fp[name] = guarded(`fs/promises.${name}`, fp[name]!);
  syncBuiltinESMExports();
}
if (!patched) patch();

afterAll(() => {
  const seen = attempts.splice(0);
  if (seen.length > 0) throw new Error(`unit layer: this file tried ${seen.join('; ')}; list it under integration (or e2e) in test/layers.ts`);
});
