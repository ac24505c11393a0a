import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A file install writes, or one it removes. */
export type FileChange =
  | { readonly kind: 'write'; readonly file: string; readonly text: string; readonly mode?: number }
  | { readonly kind: 'remove'; readonly file: string };

/** Why install refused to touch a file. Closed: callers switch on it. */
export class InstallError extends Error {
  override readonly name = 'InstallError' as const;
  readonly code: 'unreadable_settings' | 'conflict' | 'untrusted';

  constructor(code: InstallError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A settings file's JSON object, `{}` when it does not exist; a file that is not a JSON object is refused. */
export async function readJsonObject(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new InstallError('unreadable_settings', `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InstallError('unreadable_settings', `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}): fix it first, nothing was changed`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InstallError('unreadable_settings', `${file} is not a JSON object: nothing was changed`);
  return value as Record<string, unknown>;
}

/** Whether a JSON value holds our marker anywhere in a string. */
export function mentionsOurs(value: unknown, marker: string): boolean {
  return JSON.stringify(value ?? null).includes(marker);
}

/**
 * Merge hook groups into an event-keyed object (`hooks.PreToolUse[]`), removing ours first (so a
 * second install changes nothing and an uninstall leaves everything else): every group or handler
 * whose command mentions the marker is dropped; an event left empty by that is removed; then `add`'s
 * groups are appended.
 */
export function mergeEventGroups(
  hooks: Record<string, unknown>,
  add: Readonly<Record<string, readonly unknown[]>>,
  marker: string,
  handlersKey: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...hooks };
  for (const [event, groups] of Object.entries(out)) {
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      if (handlersKey !== undefined && typeof group === 'object' && group !== null && Array.isArray((group as Record<string, unknown>)[handlersKey])) {
        const handlers = ((group as Record<string, unknown>)[handlersKey] as unknown[]).filter((h) => !mentionsOurs(h, marker));
        if (handlers.length === 0 && mentionsOurs(group, marker)) continue;
        kept.push(handlers.length === ((group as Record<string, unknown>)[handlersKey] as unknown[]).length ? group : { ...(group as object), [handlersKey]: handlers });
      } else if (!mentionsOurs(group, marker)) kept.push(group);
    }
    if (kept.length === 0 && groups.length > 0) delete out[event];
    else out[event] = kept;
  }
  for (const [event, groups] of Object.entries(add)) {
    const existing = Array.isArray(out[event]) ? (out[event] as unknown[]) : [];
    out[event] = [...existing, ...groups];
  }
  return out;
}

/** JSON as settings files write it: two spaces, a final newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Apply changes: each file written beside itself and renamed over (readers never see half a file). */
export async function applyChanges(changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    if (change.kind === 'remove') {
      await rm(change.file, { force: true });
      continue;
    }
    await mkdir(path.dirname(change.file), { recursive: true });
    const temp = path.join(path.dirname(change.file), `.${path.basename(change.file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, change.text, change.mode === undefined ? {} : { mode: change.mode });
      if (change.mode !== undefined) await chmod(temp, change.mode);
      await rename(temp, change.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
