import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HookError } from '../errors/hook-error.js';
import { parseConfig } from './parse.js';
import { describeFiles, pinDigest, pinTarget } from './pin.js';
import { pinConfigText, type PinEdit } from './pin-text.js';
import { loadConfig } from './load.js';

/** What {@link pinConfig} did. */
export interface PinReport {
  readonly file: string;
  /** Whether the file was rewritten (false when every pin was already right). */
  readonly written: boolean;
  /** One per pinned hook, with the files its digest covers and what runs uncovered (the interpreter). */
  readonly pinned: readonly (PinEdit & { readonly files: readonly string[]; readonly uncovered: readonly string[] })[];
  /** Hooks that cannot be pinned, and why (a shell command string...). */
  readonly skipped: readonly { readonly index: number; readonly name: string; readonly reason: string }[];
}

/**
 * Pin every hook of a config file: compute the digest of each hook's own files (see {@link pinTarget})
 * and write it as the hook's `sha256`, editing the file's text minimally (see {@link pinConfigText}:
 * formatting and key order are kept) and replacing it atomically. Hooks that cannot be pinned are
 * skipped and reported. Throws a `ConfigError` for an invalid config, and a `HookError`
 * (`load_failed`) when a hook's file cannot be read — then nothing is written.
 *
 * @example
 * const report = await pinConfig('hooks.json');
 * for (const p of report.pinned) console.log(p.name, p.action, p.sha256);
 */
export async function pinConfig(file: string): Promise<PinReport> {
  await loadConfig(file); // its errors name the line and column of bad JSON
  const raw = await readFile(file, 'utf8');
  // The text that is edited must be the text that is validated (the file may have changed since).
  const config = parseConfig(JSON.parse(raw.startsWith('\uFEFF') ? raw.slice(1) : raw), file);

  const digests = new Map<number, string>();
  const targets = new Map<number, { files: readonly string[]; uncovered: readonly string[] }>();
  const skipped: { index: number; name: string; reason: string }[] = [];
  for (const [index, hook] of config.hooks.entries()) {
    const target = await pinTarget(hook);
    if ('none' in target) {
      skipped.push({ index, name: hook.name, reason: target.none });
      continue;
    }
    try {
      digests.set(index, await pinDigest(target.files));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new HookError('load_failed', `hook "${hook.name}": cannot read ${describeFiles(target.files)} to pin it (${code}); nothing was written`, { hook: hook.name, cause: error });
    }
    targets.set(index, { files: target.files, uncovered: target.uncovered });
  }

  const { text, edits } = pinConfigText(raw, digests);
  const written = text !== raw;
  if (written) await replaceFile(file, text);
  return {
    file,
    written,
    pinned: edits.map((edit) => ({ ...edit, files: targets.get(edit.index)?.files ?? [], uncovered: targets.get(edit.index)?.uncovered ?? [] })),
    skipped,
  };
}

/** Write beside the file and rename over it: a reader never sees half a config; its mode is kept. */
async function replaceFile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const { mode } = await stat(file);
  try {
    await writeFile(temp, text, { mode });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
