import type { FailureCode } from '../contract/failure.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import type { HooksConfig } from './schema.js';

/** One hook's verdict from {@link checkConfig}. */
export type HookCheck =
  | { readonly name: string; readonly kind: 'command' | 'component'; readonly ok: true }
  | { readonly name: string; readonly kind: 'command' | 'component'; readonly ok: false; readonly code: FailureCode; readonly message: string };

/** What {@link checkConfig} found: `ok` when every hook can start. */
export interface CheckReport {
  readonly ok: boolean;
  /** One entry per hook, in declared order. */
  readonly hooks: readonly HookCheck[];
}

/**
 * Verify that every hook of a (validated) config can start, without running any: a command hook's
 * program resolves to an executable (its transport's `check()`), a component hook loads. Never
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
  try {
    built = await buildHook(hook, options);
    const { transport } = built.definition;
    // A component "can start" when it loads; its transport's check(), when it has one, may do less.
    if (built.load !== undefined) await built.load();
    else await transport.check?.();
    return { name: hook.name, kind, ok: true };
  } catch (error) {
    const failure = namedHookError(error, hook.name, fallback);
    return { name: hook.name, kind, ok: false, code: failure.code, message: failure.message };
  } finally {
    await built?.definition.transport.close?.();
  }
}
