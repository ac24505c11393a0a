import type { FailureCode } from '../contract/failure.js';
import { isOptionsError } from '../errors/options-error.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import { findCommandProblems } from './command-files.js';
import type { HookConfig, HooksConfig } from './schema.js';

/** A hook's check failed with this code: a hook failure code, or `invalid_options`. */
export type HookCheckCode = FailureCode | 'invalid_options';

/** One hook's verdict from {@link checkConfig}; `warnings` are things it could not vouch for. */
export type HookCheck =
  | { readonly name: string; readonly kind: 'command' | 'component'; readonly ok: true; readonly warnings?: readonly string[] }
  | {
      readonly name: string;
      readonly kind: 'command' | 'component';
      readonly ok: false;
      readonly code: HookCheckCode;
      readonly message: string;
      readonly warnings?: readonly string[];
    };

/** What {@link checkConfig} found: `ok` when every hook can start. */
export interface CheckReport {
  readonly ok: boolean;
  /** One entry per hook, in declared order. */
  readonly hooks: readonly HookCheck[];
}

/**
 * Verify that every hook of a (validated) config can start, without running any: a command hook's
 * program resolves to an executable (its transport's `check()`) and the script files its arguments
 * name exist (see {@link findCommandProblems}: relative ones beside the config, whose directory is
 * the hook's `BASIS_HOOKS_CONFIG_DIR`); a component hook loads. Never rejects for a hook's problem —
 * each is reported with a code (`spawn_failed`, `load_failed`) and a message naming the hook, the
 * file or program and where it was looked for. What cannot be known ahead of a call (a path relative
 * to the call's workspace, shell syntax) is a warning, not a failure.
 *
 * @example
 * const report = await checkConfig(await loadConfig('hooks.json'));
 * for (const hook of report.hooks) console.log(hook.name, hook.ok ? 'ok' : hook.code);
 */
export async function checkConfig(config: HooksConfig, options: BuildOptions = {}): Promise<CheckReport> {
  const hooks = await Promise.all(config.hooks.map((hook) => checkHook(hook, options)));
  return { ok: hooks.every((hook) => hook.ok), hooks };
}

async function checkHook(hook: HookConfig, options: BuildOptions): Promise<HookCheck> {
  const kind = 'command' in hook ? 'command' : 'component';
  const fallback: FailureCode = kind === 'command' ? 'spawn_failed' : 'load_failed';
  let built: BuiltHook | undefined;
  let warnings: readonly string[] = [];
  const withWarnings = (check: HookCheck): HookCheck => (warnings.length === 0 ? check : { ...check, warnings });
  try {
    built = await buildHook(hook, options);
    if ('command' in hook) {
      const found = await findCommandProblems(hook);
      warnings = found.warnings;
      if (found.errors.length > 0) {
        return withWarnings({ name: hook.name, kind, ok: false, code: 'spawn_failed', message: `hook "${hook.name}": ${found.errors.join('; ')}` });
      }
    }
    const { transport } = built.definition;
    // A component "can start" when it loads; its transport's check(), when it has one, may do less.
    if (built.load !== undefined) await built.load();
    else await transport.check?.();
    return withWarnings({ name: hook.name, kind, ok: true });
  } catch (error) {
    if (isOptionsError(error)) return withWarnings({ name: hook.name, kind, ok: false, code: error.code, message: error.message });
    const failure = namedHookError(error, hook.name, fallback);
    return withWarnings({ name: hook.name, kind, ok: false, code: failure.code, message: failure.message });
  } finally {
    await built?.definition.transport.close?.();
  }
}
