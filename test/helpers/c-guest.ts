/**
 * Build a small C component for a test from its source, with the real toolchain (clang + the C glue +
 * jco, through the authoring kit's `buildHookDir`). Built once per source: the result is kept under
 * `.cache/test-guests/<sha256>/`, so later runs only load it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildHookDir } from '../../host/kit/index.js';
import { ROOT } from './guests.js';

const GLUE = join(ROOT, 'guest-examples', 'c', 'glue');
const CACHE = join(ROOT, '.cache', 'test-guests');

const building = new Map<string, Promise<string>>();

/** Path of the component built from `sourceFile` (a `.c` file using `basis_hook.h`). */
export function buildCGuest(name: string, sourceFile: string): Promise<string> {
  let pending = building.get(sourceFile);
  if (pending === undefined) {
    pending = build(name, sourceFile);
    building.set(sourceFile, pending);
  }
  return pending;
}

async function build(name: string, sourceFile: string): Promise<string> {
  const source = await readFile(sourceFile, 'utf8');
  const hash = createHash('sha256');
  hash.update(source);
  for (const file of ['basis_hook.h', 'basis_hook.c']) hash.update(await readFile(join(GLUE, file)));
  const dir = join(CACHE, `${name}-${hash.digest('hex').slice(0, 16)}`);
  const out = join(dir, 'build', `${name}.wasm`);
  if (existsSync(out)) return out;
  // Build in a fresh directory and move nothing half-built into place: a failed build leaves no component.
  const work = `${dir}.tmp-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await cp(GLUE, join(work, 'glue'), { recursive: true });
  await writeFile(join(work, 'hook.c'), source);
  await writeFile(
    join(work, 'hook.json'),
    JSON.stringify({ manifest: 1, name, event: 'pre_tool_use', lang: 'c', sources: ['hook.c', 'glue/basis_hook.c'], include: ['glue'] }),
  );
  await buildHookDir(work);
  await rm(dir, { recursive: true, force: true });
  await cp(work, dir, { recursive: true });
  await rm(work, { recursive: true, force: true });
  return out;
}
