import { ConfigError } from '../errors/config-error.js';
import type { AuditSink } from '../runner/audit.js';
import type { RunnerOptions } from '../runner/options.js';
import { HookRunner } from '../runner/runner.js';
import { configAuditSinks, type ConfigAuditOptions } from './audit-sinks.js';
import { buildHook, namedHookError, sharedWorkers, type BuildOptions, type BuiltHook } from './build.js';
import { describeConfigIssues } from './issues.js';
import { HooksConfig } from './schema.js';

/** Options for {@link createRunner}. */
export type CreateRunnerOptions = BuildOptions &
  ConfigAuditOptions & {
    /** Told of every failure of an audit sink that throws (see `HookRunner`'s `on_audit_error`). */
    readonly on_audit_error?: RunnerOptions['on_audit_error'];
  };

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
  // The audit file is opened first: an audit that cannot be written stops the start, not a call.
  const sinks: AuditSink[] = await configAuditSinks(checked.data, '<config object>', options);
  try {
    // Component hooks in worker isolation share their workers: consecutive ones run in one hop.
    const workers = options.workers ?? (await sharedWorkers(checked.data.hooks));
    const building: BuildOptions = workers === undefined ? options : { ...options, workers };
    for (const hook of checked.data.hooks) built.push(await buildHook(hook, building));
    // Loads run concurrently (each is mostly compile time), but the first failure in declared order is
    // the one reported, so the error does not depend on which finished first.
    const loads = await Promise.allSettled(built.map((hook) => hook.load?.()));
    for (const [index, result] of loads.entries()) {
      const hook = built[index];
      if (result.status === 'rejected' && hook !== undefined) throw namedHookError(result.reason, hook.definition.name, 'load_failed');
    }
    const { budget_ms, audit_payloads, telemetry_payloads, telemetry_reasons } = checked.data;
    return new HookRunner(
      built.map((hook) => hook.definition),
      { budget_ms, audit: sinks, audit_payloads, on_audit_error: options.on_audit_error, telemetry_payloads, telemetry_reasons },
    );
  } catch (error) {
    await Promise.allSettled(built.map((hook) => hook.definition.transport.close?.()));
    await Promise.allSettled(sinks.map((sink) => (typeof sink === 'function' ? undefined : sink.close?.())));
    throw error;
  }
}
