import { createHash } from 'node:crypto';
import { constants, statSync } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { HookError } from '../errors/hook-error.js';
import type { InvokeResult, Transport } from '../runner/transport.js';
import { readCedarFiles } from '../transports/cedar/policy-set.js';
import type { BuiltHook } from './build.js';
import type { CedarHookConfig, CommandHookConfig, HookConfig } from './schema.js';

/** The file a hook's `sha256` pins, or why the hook has none. */
export type PinTarget = { readonly file: string } | { readonly none: string };

/** A hook's digest as `check` shows it and `pin` writes it. */
export type HookDigest = { readonly file: string; readonly sha256: string } | { readonly none: string };

/** The sha256 of a file's bytes, as 64 lowercase hex digits. */
export async function sha256File(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

/**
 * Which file a hook's `sha256` is the digest of:
 *
 * - a component hook: the component file;
 * - a command hook given as argv:
 *   1. when `argv[0]` is a path (contains a `/`), that file — the hook *is* that program or script;
 *   2. else `argv[0]` is a program found on `PATH`, usually an interpreter (`node`, `python3`, `sh`):
 *      the first later argument that is an absolute path to an existing regular file — the script
 *      (relative entries that exist beside the config file were made absolute when it was loaded);
 *   3. else the program itself, as found on `PATH` (the hook's `env.PATH` over the host's);
 * - a command given as a shell string: none — the shell owns its parsing, there is no single file
 *   (the config refuses `sha256` on one);
 * - a Cedar hook: its policy set file, with its entities and schema files — the digest is
 *   `policySetDigest` of the three (see {@link hookDigest});
 * - a CEL hook: none — its rules are in the config itself (the config refuses `sha256` on one).
 *
 * A pin covers that file, not the interpreter running it nor files it reads.
 */
export async function pinTarget(hook: HookConfig): Promise<PinTarget> {
  if ('component' in hook) return { file: hook.component };
  if ('cedar' in hook) return { file: hook.cedar };
  if ('cel' in hook) return { none: 'a CEL hook\'s rules are in the config itself' };
  return commandPinTarget(hook);
}

/** What a pin mismatch names: the file, and for a Cedar hook the files read with it. */
function pinnedFiles(hook: HookConfig): string {
  if ('component' in hook) return hook.component;
  if ('cedar' in hook) return [hook.cedar, hook.entities, hook.schema].filter((f): f is string => f !== undefined).join(' + ');
  return hook.name;
}

async function cedarDigest(hook: CedarHookConfig): Promise<string> {
  const files = { policies: hook.cedar, entities: hook.entities, schema: hook.schema };
  return (await readCedarFiles(hook.max_file_bytes === undefined ? files : { ...files, max_file_bytes: hook.max_file_bytes })).sha256;
}

async function commandPinTarget(hook: CommandHookConfig): Promise<PinTarget> {
  const { command } = hook;
  if (typeof command === 'string') return { none: 'a shell command string has no single script file' };
  const [program, ...args] = command;
  if (program === undefined) return { none: 'the command is empty' };
  if (program.includes('/')) {
    if (!path.isAbsolute(program)) return { none: `${JSON.stringify(program)} is relative to each call's workspace, so it cannot be pinned ahead of the call` };
    return { file: program };
  }
  for (const arg of args) {
    if (path.isAbsolute(arg) && (await isFile(arg))) return { file: arg };
  }
  const found = await onPath(program, hook.env?.['PATH'] ?? process.env['PATH'] ?? '');
  return found === undefined ? { none: `${JSON.stringify(program)} is not an executable file on PATH` } : { file: found };
}

/** The digest of the file a hook pins, or why it has none (also when that file cannot be read). */
export async function hookDigest(hook: HookConfig): Promise<HookDigest> {
  const target = await pinTarget(hook);
  if ('none' in target) return target;
  try {
    return { file: target.file, sha256: 'cedar' in hook ? await cedarDigest(hook) : await sha256File(target.file) };
  } catch (error) {
    return { none: `cannot read ${target.file} (${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))})` };
  }
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
          throw pinMismatch(name, pinnedFiles(hook), pinned, actual);
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
    if ('none' in found) throw new HookError('load_failed', `cannot check its pin: ${found.none}`, { hook: name });
    const stamp = identity(found.file);
    if (stamp !== undefined && stamp === verifiedAs) return;
    let actual: string;
    try {
      actual = await sha256File(found.file);
    } catch (error) {
      throw new HookError('load_failed', `cannot read its pinned file ${found.file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { hook: name, cause: error });
    }
    if (actual !== pinned) {
      verifiedAs = undefined;
      throw pinMismatch(name, found.file, pinned, actual);
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

/** A policy hook's `explain`, kept through the pin (after its load has checked the pin). */
function explainOf(inner: Transport, load: () => Promise<unknown>): Pick<Transport, 'explain'> {
  const explain = inner.explain?.bind(inner);
  if (explain === undefined) return {};
  return { explain: async (request) => (await load(), explain(request)) };
}

function failureOf(error: unknown): { code: HookError['code']; message: string } {
  if (error instanceof HookError) return error.toFailure();
  return { code: 'load_failed', message: `${error instanceof Error ? error.message : String(error)}` };
}

/** A file's identity for "has it changed since it was hashed", or undefined when it cannot be read. */
function identity(file: string): string | undefined {
  const info = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (info === undefined) return undefined;
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Where `program` is found on `searchPath`, as spawn finds it: the first executable regular file. */
async function onPath(program: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.resolve(dir, program);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here: the next directory.
    }
  }
  return undefined;
}
