/**
 * The `hooks.json` config: schema, loading (with paths resolved against the file), and building a
 * runner from it. Internals (issue shaping, transport mapping) are deliberately not exported.
 */
export {
  HooksConfig,
  HookConfig,
  CommandHookConfig,
  ComponentHookConfig,
  CedarHookConfig,
  CelHookConfig,
  ComponentGrantsConfig,
  HookCommand,
  SUPPORTED_HOOK_SCHEMAS,
  hookKind,
  type HookKind,
} from './schema.js';
export { loadConfig } from './load.js';
export { parseConfig } from './parse.js';
export { resolveConfigPaths, CONFIG_DIR_ENV } from './resolve.js';
export { createRunner, type CreateRunnerOptions } from './create-runner.js';
export { checkConfig, type CheckReport, type HookCheck, type HookCheckCode, type HookPinInfo } from './check.js';
export { armRunner, armConfig, type ArmOptions, type ArmConfigOptions, type ArmReport, type HookArmReport, type ArmCaseResult } from './arm.js';
export { explainCall, type ExplainReport, type HookExplanation } from './explain.js';
export { pinConfigText, type PinEdit } from './pin-text.js';
export { pinConfig, type PinReport } from './pin-file.js';
export { hooksJsonSchema, hooksJsonSchemaText } from './json-schema.js';
export { BudgetConfig, Sha256 } from './ops-schema.js';
export { pinTarget, hookDigest, sha256File, pinDigest, isInterpreter, type PinTarget, type HookDigest } from './pin.js';
export type { ConfigAuditOptions } from './audit-sinks.js';
