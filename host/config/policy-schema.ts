import * as z from 'zod';
import { CelRules } from '../transports/cel/rules.js';
import { ToolPattern } from './tool-pattern.js';

/*
 * The config keys of the policy hooks — Cedar and CEL — and CEL as a matcher (`when`, a `tools`
 * entry), kept apart from schema.ts, which spreads them in, so each reads as one concept.
 */

/** A hook's `when`: a CEL expression over the request; the hook runs only when it is true. */
export const WhenConfig = z
  .string()
  .min(1)
  .describe(
    'A CEL expression over the request (tool_name, input, output, is_error, agent_id, workspace, event): the hook runs only for calls where it is true. Asked at the hook\'s turn, on the request it would see; an expression that fails on a call fails the hook (policy_error) under its on_failure.',
  );

/** A `tools` entry written as CEL over `tool_name`. */
export const CelToolPattern = z
  .strictObject({
    cel: z.string().min(1).describe('A CEL expression over tool_name (a string), e.g. "tool_name.startsWith(\'delete_\')".'),
  })
  .describe('A CEL tool matcher, e.g. {"cel": "tool_name.startsWith(\'delete_\') || tool_name.endsWith(\'_admin\')"}.');

/** A hook's `tools` entry: a plain one (tool-pattern.ts, which the MCP gateway's `expose` shares) or CEL. */
export const HookToolPattern = z.union([ToolPattern, CelToolPattern]);

/** Keys of a Cedar hook besides the common ones. */
const cedarKeys = {
  cedar: z.string().min(1).describe('The Cedar policy set file, relative to the config file.'),
  entities: z.string().min(1).optional().describe('Cedar entities (JSON, an array), relative to the config file: agents, their groups and attributes, action groups.'),
  schema: z
    .string()
    .min(1)
    .optional()
    .describe('A Cedar schema (Cedar schema syntax, or its JSON form in a .json file), relative to the config file. Every policy must validate against it; a tool it declares no action for is denied.'),
  decision_cache: z.int().nonnegative().optional().describe('Remember the decisions of this many distinct requests (default 0: off); a repeated identical request is answered without asking Cedar.'),
  max_file_bytes: z.int().positive().optional().describe('The most each of the three files may hold, in bytes (default 1048576); a larger one is refused at load.'),
};

/** Keys of a CEL hook besides the common ones. */
const celKeys = {
  cel: CelRules,
  cost_limit: z
    .int()
    .positive()
    .optional()
    .describe('The most each rule\'s when may cost on one call, in CEL cost units (default 100000): estimated at load, enforced as it runs (timeout when spent).'),
};

/**
 * The Cedar and CEL hook schemas, built on the keys every hook has (`common`, from schema.ts, which
 * calls this: the keys live there, the policy kinds here, and neither file imports the other's values).
 */
export function policyHookConfigs<C extends z.core.$ZodLooseShape>(common: C) {
  return {
    CedarHookConfig: z
      .strictObject({ ...common, ...cedarKeys })
      .meta({ title: 'Cedar hook', description: 'A hook decided by a Cedar policy set (the official @cedar-policy/cedar-wasm engine, an optional peer dependency).' }),
    CelHookConfig: z
      .strictObject({ ...common, ...celKeys })
      .meta({ title: 'CEL hook', description: 'A hook decided by ordered CEL rules: the first whose when is true decides; no match is allow.' }),
  };
}
