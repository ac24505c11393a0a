import type { FailureCode } from '../contract/failure.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import { hookDigest } from './pin.js';
import type { HooksConfig } from './schema.js';

/**
 * What a hook's `sha256` would pin: the file and its digest (`sha256`), or why it has none
 * (`unpinnable`), and whether the config pins it (a mismatch is the hook's `load_failed`).
 */
export type HookPinInfo =
  | { readonly file: string; readonly sha256: string; readonly pinned: boolean }
  | { readonly unpinnable: string; readonly pinned: boolean };

/** One hook's verdict from {@link checkConfig}. */
export type HookCheck =
  | ({ readonly name: string; readonly kind: 'command' | 'component'; readonly ok: true } & HookPinInfo)
  | ({ readonly name: string; readonly kind: 'command' | 'component'; readonly ok: false; readonly code: FailureCode; readonly message: string } & HookPinInfo);

/** What {@link checkConfig} found: `ok` when every hook can start. */
export interface CheckReport {
  readonly ok: boolean;
  /** One entry per hook, in declared order. */
  readonly hooks: readonly HookCheck[];
}

/**
 * Verify that every hook of a (validated) config can start, without running any: a command hook's
 * program resolves to an executable (its transport's `check()`), a component hook loads, a pinned
 * hook's file has its `sha256`. Each hook's digest is reported (see {@link pinTarget}). Never
 * rejects for a hook's problem — each is reported with the `HookError` code and message it failed
 * with (`spawn_failed`, `load_failed`).
 *
 * @example
 * const report = await checkConfig(await loadConfig('hooks.json'));
 * for (const hook of report.hooks) console.log(hook.name, hook.ok ? 'ok' : hook.code);
 */
export async function checkConfig(config: HooksConfig, options: BuildOptions = {}): Promise<CheckReport> {
  const hooks = await Promise.all(config.hooks.map((hook) => checkHook(hook, options)));
  return { ok: hooks.every((hook) => hook.ok), hooks };
}

async function checkHook(hook: HooksConfig['hooks'][number], options: BuildOptions): Promise<HookCheck> {
  const kind = 'command' in hook ? 'command' : 'component';
  const fallback: FailureCode = kind === 'command' ? 'spawn_failed' : 'load_failed';
  let built: BuiltHook | undefined;
  const digest = await hookDigest(hook);
  const pin: HookPinInfo = 'none' in digest ? { unpinnable: digest.none, pinned: hook.sha256 !== undefined } : { ...digest, pinned: hook.sha256 !== undefined };
  try {
    built = await buildHook(hook, options);
    const { transport } = built.definition;
    // A component "can start" when it loads (its check() is the same load, done once); a command when
    // its pin holds (its load) and its program resolves (its check()).
    await built.load?.();
    await transport.check?.();
    return { name: hook.name, kind, ok: true, ...pin };
  } catch (error) {
    const failure = namedHookError(error, hook.name, fallback);
    return { name: hook.name, kind, ok: false, code: failure.code, message: failure.message, ...pin };
  } finally {
    await built?.definition.transport.close?.();
  }
}
