import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { HookError } from '../errors/hook-error.js';
import type { InvokeResult, Transport } from '../runner/transport.js';
import type { BuiltHook } from './build.js';
import { pinTarget, type PinTarget } from './pin-target.js';
import type { HookConfig } from './schema.js';

export { pinTarget, isInterpreter, type PinTarget } from './pin-target.js';

/** A hook's digest as `check` shows it and `pin` writes it: the files it covers, and what runs uncovered. */
export type HookDigest =
  | { readonly files: readonly string[]; readonly sha256: string; readonly uncovered: readonly string[] }
  | { readonly none: string };

/** The sha256 of a file's bytes, as 64 lowercase hex digits. */
export async function sha256File(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

/**
 * The digest a pin of these files holds: one file's own sha256 (so a component's pin is the digest
 * any tool prints for it); for several, the sha256 of their digests, one lowercase hex line each, in
 * the order given — a file added, removed, reordered or changed changes it.
 */
export async function pinDigest(files: readonly string[]): Promise<string> {
  const digests: string[] = [];
  for (const file of files) digests.push(await sha256File(file));
  if (digests.length === 1) return digests[0] as string;
  return createHash('sha256').update(digests.map((d) => `${d}\n`).join('')).digest('hex');
}

/** The digest of the files a hook pins, or why it has none (also when a file cannot be read). */
export async function hookDigest(hook: HookConfig): Promise<HookDigest> {
  const target = await pinTarget(hook);
  if ('none' in target) return target;
  try {
    return { files: target.files, sha256: await pinDigest(target.files), uncovered: target.uncovered };
  } catch (error) {
    return { none: `cannot read ${describeFiles(target.files)} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

/** "a.py" or "a.py, b.py" for a message. */
export function describeFiles(files: readonly string[]): string {
  return files.join(', ');
}

/** The load failure of a pinned hook whose file has another digest: it names both. */
export function pinMismatch(hook: string, file: string, pinned: string, actual: string): HookError {
  return new HookError('load_failed', `${file} has sha256 ${actual}, but the hook is pinned to ${pinned.toLowerCase()}`, { hook });
}

/**
 * Enforce a hook's `sha256`, when it has one:
 *
 * - a component is checked on the bytes its loader read (the digest the loader computed for its
 *   cache key), so what was verified is what was compiled; until that load succeeded no call runs;
 *   so is a Cedar hook, on the bytes of its policies, entities and schema its loader read;
 * - a command's file is checked when the runner is created (its `load`), and again before **every**
 *   call — a script swapped after startup is refused (`load_failed`, under the hook's `on_failure`)
 *   instead of run. Between calls a `stat` tells whether the file changed; only then is it hashed.
 *   What remains is the moment between the check and the exec (a swap in those microseconds runs).
 */
export function withPin(hook: HookConfig, built: BuiltHook): BuiltHook {
  const pinned = hook.sha256?.toLowerCase();
  if (pinned === undefined) return built;
  const inner = built.definition.transport;
  const name = hook.name;

  if (built.load !== undefined) {
    const innerLoad = built.load;
    let verified: Promise<unknown> | undefined;
    const load = (): Promise<unknown> => {
      verified ??= innerLoad().then(async (info) => {
        const actual = (info as { sha256?: unknown } | undefined)?.sha256;
        if (typeof actual !== 'string') throw new HookError('load_failed', `the loader reported no sha256 to check the pin against`, { hook: name });
        if (actual !== pinned) {
          await inner.close?.();
          throw pinMismatch(name, describeFiles(loadedFiles(hook)), pinned, actual);
        }
        return info;
      });
      return verified;
    };
    let ok = false;
    const transport: Transport = {
      kind: inner.kind,
      ...explainOf(inner, load),
      invoke: (request, context) => {
        if (ok) return inner.invoke(request, context);
        return load().then(
          () => {
            ok = true;
            return inner.invoke(request, context);
          },
          (error: unknown): InvokeResult => ({ ok: false, failure: failureOf(error) }),
        );
      },
      check: async () => {
        await load();
      },
      close: async () => {
        await inner.close?.();
      },
    };
    return { ...built, definition: { ...built.definition, transport }, load };
  }

  // The file is found once (the config does not change under a runner), and hashed again only when
  // its identity changed: device, inode, size, mtime and ctime (a write, a rename over it, a chmod —
  // and ctime cannot be set back from user space). A stat is a few µs; reading and hashing through
  // the thread pool took ~1 ms on a loaded machine, a fifth of a spawn.
  let target: Promise<PinTarget> | undefined;
  let verifiedAs: string | undefined;
  const verify = async (): Promise<void> => {
    target ??= pinTarget(hook);
    const found = await target;
    if ('none' in found) throw new HookError('load_failed', `is pinned, but its pin would cover no file of its own, so it is refused: ${found.none}`, { hook: name });
    const stamp = identities(found.files);
    if (stamp !== undefined && stamp === verifiedAs) return;
    let actual: string;
    try {
      actual = await pinDigest(found.files);
    } catch (error) {
      throw new HookError('load_failed', `cannot read its pinned file(s) ${describeFiles(found.files)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { hook: name, cause: error });
    }
    if (actual !== pinned) {
      verifiedAs = undefined;
      throw pinMismatch(name, describeFiles(found.files), pinned, actual);
    }
    // The identity read *before* hashing: a change during the hash shows as a new identity next time.
    verifiedAs = stamp;
  };
  const transport: Transport = {
    kind: inner.kind,
    invoke: async (request, context) => {
      try {
        await verify();
      } catch (error) {
        return { ok: false, failure: failureOf(error) };
      }
      return inner.invoke(request, context);
    },
    check: async () => {
      await verify();
      await inner.check?.();
    },
    close: async () => {
      await inner.close?.();
    },
  };
  // The pin is checked when the runner is created, as a component's is when it loads: a mismatch
  // stops the start (`createRunner` rejects, the CLI exits 2) before any call runs.
  return { ...built, definition: { ...built.definition, transport }, load: verify };
}

/** The files a loaded hook's pin is checked on: a component, or a Cedar hook's policies, entities and schema. */
function loadedFiles(hook: HookConfig): string[] {
  if ('component' in hook) return [hook.component];
  if ('cedar' in hook) return [hook.cedar, hook.entities, hook.schema].filter((file): file is string => file !== undefined);
  return [hook.name];
}

/** A policy hook's `explain`, kept through the pin (asked only after its load has checked the pin). */
function explainOf(inner: Transport, load: () => Promise<unknown>): Pick<Transport, 'explain'> {
  const explain = inner.explain?.bind(inner);
  if (explain === undefined) return {};
  return { explain: async (request) => (await load(), explain(request)) };
}

function failureOf(error: unknown): { code: HookError['code']; message: string } {
  if (error instanceof HookError) return error.toFailure();
  return { code: 'load_failed', message: `${error instanceof Error ? error.message : String(error)}` };
}

/** The files' identity for "has any changed since they were hashed", or undefined when one cannot be read. */
function identities(files: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const file of files) {
    const info = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (info === undefined) return undefined;
    parts.push(`${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`);
  }
  return parts.join('|');
}
