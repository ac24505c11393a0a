import type { FailureCode } from '../contract/failure.js';
import { isOptionsError } from '../errors/options-error.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import { findCommandProblems } from './command-files.js';
import { hookDigest } from './pin.js';
import { hookKind, type HookConfig, type HookKind, type HooksConfig } from './schema.js';

/** A hook's check failed with this code: a hook failure code, or `invalid_options`. */
export type HookCheckCode = FailureCode | 'invalid_options';

/**
 * What a hook's `sha256` would pin: exactly the files it covers and their digest (`sha256`), what
 * runs uncovered (`uncovered`: the interpreter), or why it has none (`unpinnable`), and whether the
 * config pins it (a mismatch, or a pin with no file of the hook's own, is the hook's `load_failed`).
 */
export type HookPinInfo =
  | { readonly files: readonly string[]; readonly uncovered: readonly string[]; readonly sha256: string; readonly pinned: boolean }
  | { readonly unpinnable: string; readonly pinned: boolean };

/** One hook's verdict from {@link checkConfig}; `warnings` are things it could not vouch for. */
export type HookCheck =
  | ({ readonly name: string; readonly kind: HookKind; readonly ok: true; readonly warnings?: readonly string[] } & HookPinInfo)
  | ({
      readonly name: string;
      readonly kind: HookKind;
      readonly ok: false;
      readonly code: HookCheckCode;
      readonly message: string;
      readonly warnings?: readonly string[];
    } & HookPinInfo);

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
 * the hook's `BASIS_HOOKS_CONFIG_DIR`); a component hook loads; a Cedar hook's policies, entities and
 * schema validate (Cedar's diagnostics, file and line; its warnings as warnings) and a CEL hook's
 * rules compile, as do any hook's CEL `when` and `tools`; a pinned hook's file has its `sha256`. Each hook's digest is reported (see {@link pinTarget}). Never rejects for a hook's
 * problem — each is reported with a code (`spawn_failed`, `load_failed`, `invalid_options`) and a
 * message naming the hook, the file or program and where it was looked for. What cannot be known
 * ahead of a call (a path relative to the call's workspace, shell syntax) is a warning, not a failure.
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
  const kind = hookKind(hook);
  const fallback: FailureCode = kind === 'command' ? 'spawn_failed' : 'load_failed';
  let built: BuiltHook | undefined;
  let warnings: readonly string[] = [];
  const withWarnings = (check: HookCheck): HookCheck => (warnings.length === 0 ? check : { ...check, warnings });
  const digest = await hookDigest(hook);
  const pin: HookPinInfo = 'none' in digest ? { unpinnable: digest.none, pinned: hook.sha256 !== undefined } : { ...digest, pinned: hook.sha256 !== undefined };
  try {
    built = await buildHook(hook, options);
    if ('command' in hook) {
      const found = await findCommandProblems(hook);
      warnings = found.warnings;
      if (found.errors.length > 0) {
        return withWarnings({ name: hook.name, kind, ok: false, code: 'spawn_failed', message: `hook "${hook.name}": ${found.errors.join('; ')}`, ...pin });
      }
    }
    const { transport } = built.definition;
    // A component "can start" when it loads (its check() is the same load, done once); a command when
    // its pin holds (its load) and its program resolves (its check()).
    const info = await built.load?.();
    await transport.check?.();
    // A Cedar hook's validation warnings (a policy that can never apply, …) are worth reading before a deployment.
    warnings = [...warnings, ...warningsOf(info)];
    return withWarnings({ name: hook.name, kind, ok: true, ...pin });
  } catch (error) {
    if (isOptionsError(error)) return withWarnings({ name: hook.name, kind, ok: false, code: error.code, message: error.message, ...pin });
    const failure = namedHookError(error, hook.name, fallback);
    return withWarnings({ name: hook.name, kind, ok: false, code: failure.code, message: failure.message, ...pin });
  } finally {
    await built?.definition.transport.close?.();
  }
}

function warningsOf(info: unknown): string[] {
  const warnings = (info as { warnings?: unknown } | undefined)?.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
}
