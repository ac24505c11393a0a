import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Write a cache directory atomically: its files go into a temp sibling (mode 0700, files 0600), the
 * manifest last, then one rename publishes it — a reader never sees half an entry. When another process published `dir`
 * first, its entry is kept if `isValid()` says it is complete; anything else in the way (an entry
 * damaged by hand) is replaced.
 */
export async function publishDirectory(
  parent: string,
  dir: string,
  files: Readonly<Record<string, Uint8Array | string>>,
  manifest: unknown,
  isValid: () => Promise<boolean>,
): Promise<void> {
  const tmp = await mkdtemp(join(parent, '.tmp-'));
  try {
    // Private to this user whatever the umask: the cache is code the host runs.
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(tmp, name), bytes, { mode: 0o600 });
    // The manifest last: an entry with a manifest is complete.
    await writeFile(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    try {
      await rename(tmp, dir);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
      if (await isValid()) {
        await rm(tmp, { recursive: true, force: true });
      } else {
        await rm(dir, { recursive: true, force: true });
        await rename(tmp, dir);
      }
    }
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
