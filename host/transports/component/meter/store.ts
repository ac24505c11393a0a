import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { CacheEntry } from '../cache.js';
import { publishDirectory } from '../atomic-dir.js';
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
  const manifest: z.infer<typeof Manifest> = { meter: METER_VERSION, sha256: entry.manifest.sha256, modules: Object.keys(modules).sort() };
  await publishDirectory(entry.dir, dir, modules, manifest, async () => (await readInstrumented(entry)) !== undefined);
}
