import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { sha256Hex, type CacheEntry } from './cache.js';
import { privateProblem } from './cache-dir.js';
import { publishDirectory } from './atomic-dir.js';
import { METER_VERSION } from '../meter/instrument.js';

/*
 * Instrumented core modules on disk, beside the transpiled ones: `<entry>/metered-v<METER_VERSION>/`
 * inside the transpile cache entry, which is itself keyed by the component's sha256 and the
 * transpiler's version. Written to a temporary directory and renamed into place (manifest last), like
 * the entry itself, so a reader never sees half of it. The manifest records each module's sha256 and
 * each is verified when read: an instrumented module with its fuel checks stripped, truncated or
 * swapped is not run — it is instrumented again. An entry kept in memory keeps these in memory too.
 */

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const Manifest = z.strictObject({
  meter: z.literal(METER_VERSION),
  sha256: z.string(),
  modules: z.array(z.string().regex(/^[\w.-]+\.wasm$/)),
  /** sha256 of each instrumented module, recorded when it was written. */
  files: z.record(z.string(), Sha256),
});

/** Instrumented modules of entries kept in memory. */
const memory = new Map<string, Readonly<Record<string, Uint8Array>>>();

function storeDir(entry: CacheEntry): string {
  return join(entry.dir, `metered-v${METER_VERSION}`);
}

/** The instrumented modules of an entry, or undefined when they are not (completely and exactly) there. */
export async function readInstrumented(entry: CacheEntry): Promise<Record<string, Uint8Array> | undefined> {
  if (entry.location === 'memory') {
    const kept = memory.get(entry.dir);
    return kept === undefined ? undefined : { ...kept };
  }
  const dir = storeDir(entry);
  let manifest: z.infer<typeof Manifest>;
  try {
    if ((await privateProblem(dir, 'directory')) !== undefined) return undefined;
    if ((await privateProblem(join(dir, 'manifest.json'), 'file')) !== undefined) return undefined;
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
    for (const name of manifest.modules) {
      const file = join(dir, name);
      if ((await privateProblem(file, 'file')) !== undefined) return undefined;
      // Read once, verified, and these bytes are what gets compiled.
      const bytes = new Uint8Array(await readFile(file));
      if (sha256Hex(bytes) !== manifest.files[name]) return undefined;
      modules[name] = bytes;
    }
  } catch {
    return undefined;
  }
  return modules;
}

/** Store the instrumented modules of an entry. If another writer got there first, theirs stays. */
export async function writeInstrumented(entry: CacheEntry, modules: Readonly<Record<string, Uint8Array>>): Promise<void> {
  if (entry.location === 'memory') {
    memory.set(entry.dir, { ...modules });
    return;
  }
  const dir = storeDir(entry);
  const files: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(modules)) files[name] = sha256Hex(bytes);
  const manifest: z.infer<typeof Manifest> = { meter: METER_VERSION, sha256: entry.manifest.sha256, modules: Object.keys(modules).sort(), files };
  await publishDirectory(entry.dir, dir, modules, manifest, async () => (await readInstrumented(entry)) !== undefined);
}
