import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildHook, namedHookError, type BuiltHook } from '../../config/build.js';
import { loadConfig } from '../../config/load.js';
import type { FailurePolicy } from '../../contract/failure.js';
import type { HookDefinition } from '../../runner/hook.js';
import type { CallFilter, ToolPattern } from '../../runner/matcher.js';
import type { RunnerOptions } from '../../runner/options.js';
import type { Transport } from '../../runner/transport.js';
import { subprocessTransport } from '../../transports/subprocess/index.js';
import { KitError } from '../errors/kit-error.js';
import { MANIFEST_FILE, outputPath, readManifest } from '../manifest.js';
import type { TestCase } from '../../cases/schema.js';

/** The hook(s) a cases file is run against. */
export type TestTarget =
  /** A component file. */
  | { readonly kind: 'component'; readonly path: string; readonly hook?: string }
  /** A hook directory made by `init`: its built component (`hook.json`'s output), named by its manifest. */
  | { readonly kind: 'dir'; readonly dir: string; readonly hook?: string }
  /** A subprocess hook: a shell command (`sh -c`), run in `cwd` (default: the current directory). */
  | { readonly kind: 'command'; readonly command: string; readonly cwd?: string; readonly hook?: string }
  /** The hooks of a config; `hook` picks one (else each case's `hook` field does). */
  | { readonly kind: 'config'; readonly config: string; readonly hook?: string };

/** One hook a case runs against, as the runner will hold it. */
export interface HookUnderTest {
  readonly name: string;
  readonly transport: Transport;
  /** The config's tool matcher, when the hook comes from a config (production behaviour). */
  readonly tools?: readonly ToolPattern[] | undefined;
  /** The config's `when` (and CEL `tools` entries), when it has one. */
  readonly when?: CallFilter | undefined;
  readonly on_failure?: FailurePolicy | undefined;
}

/**
 * A config's whole chain, for a case that names no hook when the config has several: every hook as
 * the config declares it (event, tools, policy, mode, in order), with its budget and audit settings —
 * the chain `basis-hooks check --cases` arms.
 */
export interface ChainUnderTest {
  readonly hooks: readonly HookDefinition[];
  readonly options: Pick<RunnerOptions, 'budget_ms' | 'audit_payloads'>;
}

/**
 * The hook a case runs against, or the chain (a config's case naming no hook); or why it is skipped (a
 * case for another hook); or why it cannot run (it names a hook the config does not have): a failure,
 * so a typo in a `hook` field cannot quietly drop a case.
 */
export type CasePick = { readonly hook: HookUnderTest } | { readonly chain: ChainUnderTest } | { readonly skip: string } | { readonly error: string };

/** A target ready to run cases: loaded, with a rule for which hook each case gets. */
export interface OpenedTarget {
  /** For reports: what is under test. */
  readonly label: string;
  pick(c: TestCase): CasePick;
  close(): Promise<void>;
}

/** A name for the hook when nothing names it (a bare component or command). */
const UNNAMED = 'hook';

/**
 * Load the hook(s) under test, before any case runs: a component that cannot load, a config that is
 * invalid or a hook it does not have reject here (`HookError('load_failed')`, `ConfigError`,
 * `KitError`), never as a failure of the first case.
 *
 * Which cases run: when the hook under test has a name (`hook`, a directory's manifest, a config
 * entry), a case whose `hook` field names another hook is skipped — so one cases file can hold the
 * cases of several hooks (guest-examples/policy-cases.jsonl). A bare component or command with no
 * `hook` given runs every case. A config's hook is declared for one event, so a case at the other
 * event is skipped too (it would exercise something the hook never does in production). Against a
 * config of several hooks without `hook` given, a case naming no hook runs through the whole chain and
 * is judged on its outcome, as `basis-hooks check --cases` judges it.
 */
export async function openTarget(target: TestTarget): Promise<OpenedTarget> {
  switch (target.kind) {
    case 'component':
      return openComponent(resolve(target.path), target.hook);
    case 'dir': {
      const dir = resolve(target.dir);
      const manifest = await readManifest(dir);
      const path = resolve(dir, outputPath(manifest));
      if (!existsSync(path)) throw new KitError('target_invalid', `${path} does not exist: build it first (basis-hooks build ${target.dir})`);
      return openComponent(path, target.hook ?? manifest.name);
    }
    case 'command': {
      const transport = subprocessTransport({ command: target.command, cwd: target.cwd ?? process.cwd() });
      await transport.check?.();
      return single(`command ${JSON.stringify(target.command)}`, { name: target.hook ?? UNNAMED, transport }, target.hook !== undefined);
    }
    case 'config':
      return openConfig(target.config, target.hook);
  }
}

async function openComponent(path: string, hook: string | undefined): Promise<OpenedTarget> {
  const { componentTransport } = await import('../../transports/component/index.js');
  const transport = componentTransport({ path });
  try {
    await transport.load();
  } catch (error) {
    await transport.close();
    throw error;
  }
  return single(path, { name: hook ?? UNNAMED, transport }, hook !== undefined);
}

function single(label: string, hook: HookUnderTest, named: boolean): OpenedTarget {
  return {
    label,
    pick: (c) => (named && c.hook !== undefined && c.hook !== hook.name ? { skip: `for hook "${c.hook}"` } : { hook }),
    close: async () => {
      await hook.transport.close?.();
    },
  };
}

async function openConfig(file: string, only: string | undefined): Promise<OpenedTarget> {
  const config = await loadConfig(file);
  const names = config.hooks.map((h) => h.name);
  if (only !== undefined && !names.includes(only)) {
    throw new KitError('target_invalid', `${file} has no hook named "${only}" (it has: ${names.join(', ') || 'none'})`);
  }
  // Without --hook, a config of one hook is that hook; with several, a case names its hook or is
  // about the whole chain (as in `basis-hooks check --cases`).
  const fallback = only ?? (names.length === 1 ? names[0] : undefined);
  const wanted = only !== undefined ? [only] : names;
  const built: BuiltHook[] = [];
  try {
    for (const hook of config.hooks.filter((h) => wanted.includes(h.name))) built.push(await buildHook(hook));
    for (const hook of built) {
      try {
        await (hook.load?.() ?? hook.definition.transport.check?.());
      } catch (error) {
        throw namedHookError(error, hook.definition.name, hook.kind === 'command' ? 'spawn_failed' : 'load_failed');
      }
    }
  } catch (error) {
    await Promise.allSettled(built.map((h) => h.definition.transport.close?.()));
    throw error;
  }
  const byName = new Map(built.map((h) => [h.definition.name, h.definition]));
  const chain: ChainUnderTest = { hooks: built.map((h) => h.definition), options: { budget_ms: config.budget_ms, audit_payloads: config.audit_payloads } };
  return {
    label: only === undefined ? file : `${file} (hook "${only}")`,
    pick(c) {
      const name = only !== undefined ? (c.hook === undefined || c.hook === only ? only : undefined) : (c.hook ?? fallback);
      if (only !== undefined && name === undefined) return { skip: `for hook "${c.hook ?? ''}"` };
      if (name === undefined) return { chain };
      const definition = byName.get(name);
      if (definition === undefined) return { error: `the case is for hook "${name}", which ${file} does not have (it has: ${names.join(', ')})` };
      // A config's hook runs at its own event only: a case at the other event tests nothing it will do.
      if (c.call.event !== definition.event) return { skip: `at ${c.call.event}; hook "${name}" runs at ${definition.event}` };
      return { hook: { name, transport: definition.transport, tools: definition.tools, when: definition.when, on_failure: definition.on_failure } };
    },
    close: async () => {
      await Promise.allSettled(built.map((h) => h.definition.transport.close?.()));
    },
  };
}

/** Whether a path is a hook directory (has a manifest) rather than a component file. */
export function isHookDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(resolve(path, MANIFEST_FILE));
}

/** The config of a policy hook directory (`init --lang cedar|cel` writes one), when `path` is one. */
export const POLICY_DIR_CONFIG = 'hooks.json';

/** Whether a path is a policy hook directory: no manifest (nothing to build), a `hooks.json`. */
export function isPolicyDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && !existsSync(resolve(path, MANIFEST_FILE)) && existsSync(resolve(path, POLICY_DIR_CONFIG));
}
