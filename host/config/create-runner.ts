import { ConfigError } from '../errors/config-error.js';
import { HookRunner } from '../runner/runner.js';
import { buildHook, namedHookError, type BuildOptions, type BuiltHook } from './build.js';
import { describeConfigIssues } from './issues.js';
import { HooksConfig } from './schema.js';

/** Options for {@link createRunner}. */
export type CreateRunnerOptions = BuildOptions;

/**
 * Build a {@link HookRunner} from a config: one transport per hook, in declared order. Component
 * hooks are loaded (transpiled, compiled, instantiated) before this resolves, so a component that
 * cannot be loaded rejects here with a `HookError` (`load_failed`) naming the hook — before any call
 * runs, never as a surprise on the first call. On rejection every transport built so far is closed.
 *
 * `config` is validated again (a programmatic caller may hand in anything); its paths are used as
 * given — {@link loadConfig} and {@link parseConfig} resolve them against the config file.
 *
 * @example
 * const runner = await createRunner(await loadConfig('hooks.json'));
 * try {
 *   const outcome = await runner.run(call);
 * } finally {
 *   await runner.close();
 * }
 */
export async function createRunner(config: HooksConfig, options: CreateRunnerOptions = {}): Promise<HookRunner> {
  const checked = HooksConfig.safeParse(config);
  if (!checked.success) {
    throw new ConfigError('config_invalid', '<config object>', describeConfigIssues(checked.error, config), { cause: checked.error });
  }
  const built: BuiltHook[] = [];
  try {
    for (const hook of checked.data.hooks) built.push(await buildHook(hook, options));
    // Loads run concurrently (each is mostly compile time), but the first failure in declared order is
    // the one reported, so the error does not depend on which finished first.
    const loads = await Promise.allSettled(built.map((hook) => hook.load?.()));
    for (const [index, result] of loads.entries()) {
      const hook = built[index];
      if (result.status === 'rejected' && hook !== undefined) throw namedHookError(result.reason, hook.definition.name, 'load_failed');
    }
    return new HookRunner(built.map((hook) => hook.definition));
  } catch (error) {
    await Promise.allSettled(built.map((hook) => hook.definition.transport.close?.()));
    throw error;
  }
}
