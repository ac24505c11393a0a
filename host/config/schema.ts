import * as z from 'zod';
import { HookEvent } from '../contract/event.js';
import { FailurePolicy } from '../contract/failure.js';
import { MAX_TIMEOUT_MS } from '../transports/subprocess/options.js';
import { checkPinnableCommands, opsConfigKeys, opsHookKeys } from './ops-schema.js';
import { gatewayConfigKeys } from './expose-schema.js';
import { DIALECT_NAMES } from '../transports/subprocess/dialect/names.js';
import { HookToolPattern, policyHookConfigs, WhenConfig } from './policy-schema.js';

/** The `hook_schema` versions this release reads. A config written for another version is refused, never guessed at. */
export const SUPPORTED_HOOK_SCHEMAS = [1] as const;

const limit = (description: string) => z.int().positive().describe(description);

const nonEmpty = (description: string) => z.string().min(1).describe(description);

/** A deadline: longer than a timer can keep is refused here, not turned into "now" by setTimeout. */
const timeout = (description: string) => z.int().positive().max(MAX_TIMEOUT_MS).describe(description);

/** An environment variable name: non-empty, no `=` and no NUL (the OS could not represent it). */
const EnvName = z.string().regex(/^[^=\0]+$/, 'must be an environment variable name (non-empty, no "=")');

const EnvMap = z
  .record(EnvName, z.string())
  .describe('Environment variables set for the hook, name → value.');

/** Keys every hook has, whatever runs it. */
const common = {
  name: nonEmpty('Unique name of the hook; it names the hook in the audit trail and in failure reasons.'),
  event: HookEvent.describe('When the hook runs: before the tool call (pre_tool_use) or after it (post_tool_use).'),
  tools: z
    .array(HookToolPattern)
    .min(1)
    .optional()
    .describe('Tools the hook runs for: exact names, * globs, {"regex": ...} or {"cel": ...}. Absent = every tool; an empty list is refused (it would never run).'),
  when: WhenConfig.optional(),
  on_failure: FailurePolicy.default('deny').describe(
    'What a failure of this hook (crash, timeout, malformed answer) does: deny the call (fail closed, default) or allow it (fail open).',
  ),
  ...opsHookKeys,
};

/**
 * A command's argv (`["node", "hooks/x.mjs"]`) or a shell command string run with `sh -c`.
 * Relative argv entries containing a `/` are resolved against the config file's directory when the
 * file exists there (see {@link resolveConfigPaths}).
 */
export const HookCommand = z
  .union(
    [
      z.array(z.string()).min(1).refine((argv) => argv[0] !== '', { message: 'the program (argv[0]) must not be empty' })
        .describe('argv: the program and its arguments, run without a shell.'),
      z.string().min(1).describe('A shell command, run with sh -c.'),
    ],
    { error: 'a non-empty argv array of strings or a non-empty shell command string' },
  )
  .describe('The hook program: an argv array (run directly) or a string (run with sh -c).');
export type HookCommand = z.infer<typeof HookCommand>;

/**
 * A hook run as a subprocess: one JSON request on stdin, one JSON response on stdout.
 *
 * @example
 * { "name": "no-force-push", "event": "pre_tool_use", "tools": ["shell"],
 *   "command": ["node", "hooks/no-force-push.mjs"], "timeout_ms": 2000 }
 */
export const CommandHookConfig = z
  .strictObject({
    ...common,
    command: HookCommand,
    timeout_ms: timeout('Deadline per call in ms (default 10000); the process group is killed after it.').optional(),
    max_output_bytes: limit('Cap on the hook\'s stdout in bytes (default 1048576).').optional(),
    max_stderr_bytes: z.int().nonnegative().describe('Cap on the stderr kept for the trail in bytes (default 65536; 0 keeps none).').optional(),
    env: EnvMap.optional(),
    pin_files: z
      .array(nonEmpty('A file, relative to the config file.'))
      .min(1)
      .optional()
      .describe(
        'The files the hook\'s sha256 covers, relative to the config file, in order (default: the script an interpreter runs, or the program itself; see the pinning docs). Name the hook\'s own code — scripts, modules it imports — when it cannot be found from the command (python3 -m pkg, a shell string).',
      ),
    dialect: z
      .enum(DIALECT_NAMES)
      .optional()
      .describe(
        'The protocol the hook speaks: basis (default; the basis wire contract), or an agent CLI\'s command-hook protocol so its existing hook scripts run unchanged: claude-code (Claude Code\'s stdin JSON; exit 2 blocks with stderr as the reason; JSON permissionDecision/updatedInput/decision/updatedToolOutput), codex, gemini, copilot, qwen, cline, cursor, windsurf, kiro. What the agent would treat as a failed hook (and let the call proceed) fails under on_failure; an "ask" is a deny.',
      ),
  })
  .meta({ title: 'Command hook', description: 'A hook run as a subprocess: JSON request on stdin, JSON response on stdout.' });
export type CommandHookConfig = z.infer<typeof CommandHookConfig>;

/** Explicit capabilities of a component hook; absent = none. */
export const ComponentGrantsConfig = z
  .strictObject({
    env: EnvMap.optional(),
    env_allow: z
      .array(EnvName)
      .optional()
      .describe('Names of host environment variables passed through to the guest (unset ones are absent).'),
    read_only_dirs: z
      .record(
        z.string().regex(/^\//, 'a guest path must be absolute (start with "/")'),
        nonEmpty('Host directory, relative to the config file.'),
      )
      .optional()
      .describe('Read-only directories: guest path (e.g. /data) → host directory (relative to the config file).'),
  })
  .meta({ title: 'Grants', description: 'What the guest may see beyond the deny-by-default sandbox.' });
export type ComponentGrantsConfig = z.infer<typeof ComponentGrantsConfig>;

/**
 * A hook run as a sandboxed WebAssembly component exporting `basis:hook/handler@1.0.0`.
 *
 * @example
 * { "name": "redact", "event": "post_tool_use", "component": "hooks/redact.wasm", "memory_mb": 64 }
 */
export const ComponentHookConfig = z
  .strictObject({
    ...common,
    component: nonEmpty('Path of the component (.wasm), relative to the config file.'),
    timeout_ms: timeout('Wall-clock deadline per call in ms (default 1000), for everything the call triggers (instantiation included).').optional(),
    memory_mb: limit('Cap on all the component\'s linear memories and tables together, in MiB (default 64).').optional(),
    max_output_bytes: limit('Cap on what the guest returns in bytes (default 1048576).').optional(),
    max_log_bytes: limit('Cap on captured guest stdout and stderr, each, in bytes (default 65536).').optional(),
    isolation: z
      .enum(['metered', 'worker'])
      .optional()
      .describe(
        'How the guest is isolated (default metered). Both meter the guest and stop it at its deadline. metered: on the calling thread (fastest; a runaway holds the thread until its deadline). worker: in a worker thread (the caller is answered at the deadline).',
      ),
    pool_size: limit('Worker isolation: most worker threads for calls that overlap (default 2). Ignored when metered.').optional(),
    fuel: limit('Optional deterministic cap per call besides the deadline, in fuel units (1 per plain WebAssembly instruction). Exhaustion fails the call as timeout.').optional(),
    state: z
      .enum(['per_call', 'per_tenant', 'shared'])
      .optional()
      .describe(
        'What state a call may see that earlier calls left in the instance (default per_tenant): per_tenant resets it before a call from another workspace/agent_id than the previous call, per_call before every call, shared never.',
      ),
    direct_call: z
      .boolean()
      .optional()
      .describe(
        'Call handle straight through the canonical ABI when the component is shaped for it (default true), else through jco\'s glue; false always uses the glue.',
      ),
    grants: ComponentGrantsConfig.optional(),
  })
  .meta({ title: 'Component hook', description: 'A hook run as a sandboxed WebAssembly component.' });
export type ComponentHookConfig = z.infer<typeof ComponentHookConfig>;

/** A hook decided by a Cedar policy set, and one decided by CEL rules (schemas in policy-schema.ts). */
export const { CedarHookConfig, CelHookConfig } = policyHookConfigs(common);
export type CedarHookConfig = z.infer<typeof CedarHookConfig>;
export type CelHookConfig = z.infer<typeof CelHookConfig>;

/** The keys that choose a hook's transport; exactly one must be present. */
export const TRANSPORT_KEYS = ['command', 'component', 'cedar', 'cel'] as const;

/** What runs a hook: the transport key it has. */
export type HookKind = (typeof TRANSPORT_KEYS)[number];

/** One hook: exactly one of `command`, `component`, `cedar` or `cel`. */
export const HookConfig = z.union([CommandHookConfig, ComponentHookConfig, CedarHookConfig, CelHookConfig]);
export type HookConfig = z.infer<typeof HookConfig>;

/** Which kind of hook an entry is (its transport key). */
export function hookKind(hook: HookConfig): HookKind {
  if ('command' in hook) return 'command';
  if ('component' in hook) return 'component';
  return 'cedar' in hook ? 'cedar' : 'cel';
}

/**
 * A `hooks.json` file. Hooks run in declared order; names are unique.
 *
 * @example
 * { "hook_schema": 1, "hooks": [{ "name": "guard", "event": "pre_tool_use", "command": ["sh", "hooks/guard.sh"] }] }
 */
export const HooksConfig = z
  .strictObject({
    $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors.'),
    hook_schema: z.literal(SUPPORTED_HOOK_SCHEMAS[0]).describe('Version of the config and hook wire format. Must be 1.'),
    hooks: z.array(HookConfig).describe('The hooks, run in declared order for their event.'),
    tool_names: z
      .enum(['native', 'canonical'])
      .optional()
      .describe(
        'What tool names and inputs the hooks see when an agent CLI\'s events come through `basis-hooks serve`/`hook --agent` (default native: the agent\'s own). canonical: one vocabulary for every agent (shell {command, cwd?}, read_file {path}, write_file {path, content}, edit_file, web_fetch {url}, web_search {query}, mcp/<server>/<tool>; other tools as <agent>:<name>), a modify mapped back into the agent\'s shape.',
      ),
    ...opsConfigKeys,
    ...gatewayConfigKeys,
  })
  .superRefine(
    (config, ctx) => {
      // Runs even when some hooks are invalid (`when`), so one pass reports every problem. The value
      // may therefore be anything: read it defensively.
      const hooks: unknown = (config as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(hooks)) return;
      const first = new Map<string, number>();
      hooks.forEach((hook: unknown, index) => {
        const name = (hook as { name?: unknown } | null)?.name;
        if (typeof name !== 'string' || name === '') return;
        const earlier = first.get(name);
        if (earlier === undefined) first.set(name, index);
        else {
          ctx.addIssue({
            code: 'custom',
            path: ['hooks', index, 'name'],
            message: `duplicate name ${JSON.stringify(name)} (also hooks[${earlier}].name); names must be unique`,
            input: name,
          });
        }
      });
    },
    { when: () => true },
  )
  .superRefine(checkPinnableCommands, { when: () => true })
  .meta({
    title: 'basis-hooks configuration',
    description: 'Hooks that see every tool call of an agent runtime and can allow, deny, modify or replace it.',
  });
export type HooksConfig = z.infer<typeof HooksConfig>;
