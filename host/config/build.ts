import type { FailureCode } from '../contract/failure.js';
import { HookError, isHookError } from '../errors/hook-error.js';
import { isOptionsError, OptionsError } from '../errors/options-error.js';
import { isPolicyError } from '../errors/policy-error.js';
import type { HookDefinition } from '../runner/hook.js';
import type { CallFilter, ToolPattern } from '../runner/matcher.js';
import type { Transport } from '../runner/transport.js';
import type { CedarOptions } from '../transports/cedar/transport.js';
import type { CelOptions } from '../transports/cel/transport.js';
import type { ComponentOptions } from '../transports/component/options.js';
import type { ComponentWorkers } from '../transports/component/workers.js';
import type { SubprocessOptions } from '../transports/subprocess/index.js';
import { hookFilters } from './filters.js';
import { withPin } from './pin.js';
import { hookKind, type CedarHookConfig, type CelHookConfig, type CommandHookConfig, type ComponentHookConfig, type HookConfig, type HookKind } from './schema.js';

/** Options that apply to every hook built from a config, not to one entry. */
export interface BuildOptions {
  /** Where transpiled components are cached (default: the component transport's own default). */
  readonly cache_dir?: string;
  /** Worker threads the config's component hooks in worker isolation share (see {@link sharedWorkers}). */
  readonly workers?: ComponentWorkers;
}

/** A hook's transport, with what must happen before its first call. */
export interface BuiltHook {
  readonly definition: HookDefinition;
  readonly kind: HookKind;
  /**
   * What must succeed before the first call: load a component (transpile, compile, instantiate), a
   * Cedar policy set (read, validate, preparse) or CEL rules (compile), or check a pinned command's
   * file against its `sha256`; absent for an unpinned command hook.
   */
  readonly load?: () => Promise<unknown>;
}

/*
 * The config keys of each hook kind map one-to-one onto its transport's options. These types fail to
 * compile when either side gains a key the other lacks, so config and API cannot drift apart
 * (`cwd` and `cache_dir` are deliberately per-process, not per-hook, settings).
 */
type HookKeys = 'name' | 'event' | 'tools' | 'when' | 'on_failure' | 'sha256' | 'mode';
type CommandKeys = Exclude<keyof CommandHookConfig, HookKeys | 'pin_files'>;
type ComponentKeys = Exclude<keyof ComponentHookConfig, HookKeys | 'component'>;
type CedarKeys = Exclude<keyof CedarHookConfig, HookKeys | 'cedar'>;
type CelKeys = Exclude<keyof CelHookConfig, HookKeys | 'cel'>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const commandKeysMatch: Same<CommandKeys, Exclude<keyof SubprocessOptions, 'cwd'>> = true;
const componentKeysMatch: Same<ComponentKeys, Exclude<keyof ComponentOptions, 'path' | 'cache_dir' | 'workers'>> = true;
const cedarKeysMatch: Same<CedarKeys, Exclude<keyof CedarOptions, 'policies'>> = true;
const celKeysMatch: Same<CelKeys, Exclude<keyof CelOptions, 'rules' | 'event'>> = true;
void commandKeysMatch;
void componentKeysMatch;
void cedarKeysMatch;
void celKeysMatch;

/** Drop `undefined` members: the options types are exact (`exactOptionalPropertyTypes`). */
function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The subprocess options a command hook entry stands for. */
export function subprocessOptions(hook: CommandHookConfig): SubprocessOptions {
  const { name: _name, event: _event, tools: _tools, when: _when, on_failure: _onFailure, sha256: _sha256, mode: _mode, pin_files: _pinFiles, command, ...limits } = hook;
  return { command, ...defined(limits) };
}

/** The Cedar options a Cedar hook entry stands for. */
export function cedarOptions(hook: CedarHookConfig): CedarOptions {
  const { name: _name, event: _event, tools: _tools, when: _when, on_failure: _onFailure, sha256: _sha256, mode: _mode, cedar, ...rest } = hook;
  return { policies: cedar, ...defined(rest) };
}

/** The CEL options a CEL hook entry stands for (rules compiled for the hook's event). */
export function celOptions(hook: CelHookConfig): CelOptions {
  return { rules: hook.cel, event: hook.event, ...defined({ cost_limit: hook.cost_limit }) };
}

/** The component options a component hook entry stands for. */
export function componentOptions(hook: ComponentHookConfig, options: BuildOptions = {}): ComponentOptions {
  const { name: _name, event: _event, tools: _tools, when: _when, on_failure: _onFailure, sha256: _sha256, mode: _mode, component, grants, ...limits } = hook;
  return {
    path: component,
    ...defined(limits),
    ...defined({ grants: grants === undefined ? undefined : defined(grants), cache_dir: options.cache_dir, workers: hook.isolation === 'worker' ? options.workers : undefined }),
  };
}

type ComponentModule = typeof import('../transports/component/index.js');
let componentModule: Promise<ComponentModule> | undefined;

/**
 * The component transport is imported on first use: it brings the WebAssembly toolchain with it,
 * which a config of command hooks alone should not pay for at startup.
 */
function importComponentTransport(): Promise<ComponentModule> {
  componentModule ??= import('../transports/component/index.js');
  return componentModule;
}

type CedarModule = typeof import('../transports/cedar/index.js');
type CelModule = typeof import('../transports/cel/index.js');

/**
 * Worker threads for a config's component hooks in worker isolation to share, when it has two or more:
 * consecutive ones of a chain then run in one hop (the component transport's `workers`). As many
 * threads as the largest `pool_size` among them; they stop when the last of those hooks closes.
 */
export async function sharedWorkers(hooks: readonly HookConfig[]): Promise<ComponentWorkers | undefined> {
  const inWorkers = hooks.filter((hook): hook is ComponentHookConfig => 'component' in hook && hook.isolation === 'worker');
  if (inWorkers.length < 2) return undefined;
  const { componentWorkers, COMPONENT_DEFAULTS } = await importComponentTransport();
  const workers = Math.max(...inWorkers.map((hook) => hook.pool_size ?? COMPONENT_DEFAULTS.pool_size));
  return componentWorkers({ workers, close_when_empty: true });
}

/**
 * Build one hook's transport. Construction only: nothing is spawned or loaded yet — except a CEL
 * `when` or `tools` entry, compiled now (the CEL engine loaded on first use), so a bad expression
 * rejects here, `load_failed` naming the hook, the expression and the column. Rejects with an
 * {@link OptionsError} (`invalid_options`) that names the hook when its transport refuses the options
 * (a validated config never gets there: its schema refuses them first, naming the JSON path).
 */
export async function buildHook(hook: HookConfig, options: BuildOptions = {}): Promise<BuiltHook> {
  const kind = hookKind(hook);
  let transport: Transport;
  let load: (() => Promise<unknown>) | undefined;
  let matching: { readonly tools: readonly ToolPattern[] | undefined; readonly when: CallFilter | undefined };
  try {
    matching = await hookFilters(hook);
    if ('command' in hook) {
      // Imported on first use as the component transport is (it brings node:child_process): a chain
      // of components alone does not load it at each cold start.
      const { subprocessTransport } = await import('../transports/subprocess/index.js');
      transport = subprocessTransport(subprocessOptions(hook));
    } else if ('component' in hook) {
      const { componentTransport } = await importComponentTransport();
      const component = componentTransport(componentOptions(hook, options));
      transport = component;
      load = () => component.load();
    } else if ('cedar' in hook) {
      // Loaded on use, as a component's transport is: the engine is an optional package.
      const { cedarTransport } = (await import('../transports/cedar/index.js')) as CedarModule;
      const cedar = cedarTransport(cedarOptions(hook));
      transport = cedar;
      load = () => cedar.load();
    } else {
      const { celTransport } = (await import('../transports/cel/index.js')) as CelModule;
      const cel = celTransport(celOptions(hook));
      transport = cel;
      load = () => cel.load();
    }
  } catch (error) {
    if (isOptionsError(error)) throw new OptionsError(`hook "${hook.name}": ${error.message}`, { ...optionOf(error), cause: error });
    throw namedHookError(error, hook.name, kind === 'command' ? 'spawn_failed' : 'load_failed');
  }
  const definition: HookDefinition = {
    name: hook.name,
    event: hook.event,
    tools: matching.tools,
    when: matching.when,
    on_failure: hook.on_failure,
    mode: hook.mode,
    transport,
  };
  // A pinned hook refuses to load (and, for a command, to run) when its file's sha256 differs.
  return withPin(hook, load === undefined ? { definition, kind } : { definition, kind, load });
}

function optionOf(error: OptionsError): { option?: string } {
  return error.option === undefined ? {} : { option: error.option };
}

/**
 * A failure to build, check or load a hook as a {@link HookError} whose message names the hook.
 * Anything that is not already a `HookError` gets `fallback` (the code that hook kind fails with).
 */
export function namedHookError(error: unknown, hook: string, fallback: FailureCode): HookError {
  // An invalid policy (a CEL `when`, a Cedar file) fails the hook's load, whatever the hook's kind.
  const code = isHookError(error) ? error.code : isPolicyError(error) ? 'load_failed' : fallback;
  const detail = error instanceof Error ? error.message : String(error);
  return new HookError(code, `hook "${hook}": ${detail}`, { hook, cause: error });
}
