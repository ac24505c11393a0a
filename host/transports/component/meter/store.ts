import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { CacheEntry } from '../cache.js';
import { METER_VERSION } from './instrument.js';

/*
 * Instrumented core modules on disk, beside the transpiled ones: `<entry>/metered-v<METER_VERSION>/`
 * inside the transpile cache entry, which is itself keyed by the component's sha256 and the
 * transpiler's version. Written to a temporary directory and renamed into place (manifest last), like
 * the entry itself, so a reader never sees half of it.
 */

const Manifest = z.strictObject({
  meter: z.literal(METER_VERSION),
  sha256: z.string(),
  modules: z.array(z.string().regex(/^[\w.-]+\.wasm$/)),
});

function storeDir(entry: CacheEntry): string {
  return join(entry.dir, `metered-v${METER_VERSION}`);
}

/** The instrumented modules of an entry, or undefined when they are not (completely) there. */
export async function readInstrumented(entry: CacheEntry): Promise<Record<string, Uint8Array> | undefined> {
  const dir = storeDir(entry);
  let manifest: z.infer<typeof Manifest>;
  try {
    const parsed = Manifest.safeParse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    if (!parsed.success) return undefined;
    manifest = parsed.data;
  } catch {
    return undefined;
  }
  if (manifest.sha256 !== entry.manifest.sha256) return undefined;
  const expected = [...entry.manifest.modules].sort();
  if (JSON.stringify([...manifest.modules].sort()) !== JSON.stringify(expected)) return undefined;
  const modules: Record<string, Uint8Array> = {};
  try {
    for (const name of manifest.modules) modules[name] = new Uint8Array(await readFile(join(dir, name)));
  } catch {
    return undefined;
  }
  return modules;
}

/** Store the instrumented modules of an entry. If another writer got there first, theirs stays. */
export async function writeInstrumented(entry: CacheEntry, modules: Readonly<Record<string, Uint8Array>>): Promise<void> {
  const dir = storeDir(entry);
  const tmp = await mkdtemp(join(entry.dir, '.tmp-metered-'));
  try {
    for (const [name, bytes] of Object.entries(modules)) await writeFile(join(tmp, name), bytes);
    const manifest: z.infer<typeof Manifest> = { meter: METER_VERSION, sha256: entry.manifest.sha256, modules: Object.keys(modules).sort() };
    await writeFile(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    try {
      await rename(tmp, dir);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
      // A concurrent writer renamed first, or a damaged directory is in the way: replace the latter.
      if ((await readInstrumented(entry)) === undefined) {
        await rm(dir, { recursive: true, force: true });
        await rename(tmp, dir);
      } else {
        await rm(tmp, { recursive: true, force: true });
      }
    }
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
