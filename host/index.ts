/**
 * basis-hooks: a host that runs hooks for AI-agent runtimes. A hook sees every tool call and can
 * allow it, deny it, rewrite its input before it runs, or rewrite its result after.
 *
 * This entry is the curated public surface: every name below is documented in docs/library.md and
 * listed in test/api/public-surface.json, which a test compares with what `dist/` exports. Anything
 * not exported here (the codec, the engine, matchers, telemetry names, …) is internal and may change
 * in any release. Adding or removing a name is a deliberate, reviewed change of that list.
 *
 * The integrations that bring optional packages with them are their own entries (`basis-hooks/ai`,
 * `basis-hooks/openai-agents`, `basis-hooks/mcp`, `basis-hooks/claude-code`), and so is the authoring
 * kit (`basis-hooks/kit`): running hooks never loads a toolchain, and a test checks that nothing here
 * imports it.
 *
 * @packageDocumentation
 */

// The contract: the zod schemas of what crosses a hook's boundary, each with its type of the same name.
export * from './contract/index.js';

// The runner and what plugs into it.
export { HookRunner } from './runner/index.js';
export type {
  RunOptions,
  RunnerOptions,
  AuditSink,
  AuditSinkFailure,
  AuditOptions,
  ChainBudgets,
  HookDefinition,
  Transport,
  InvokeResult,
  InvokeContext,
  HookLogs,
  ToolPattern,
  CallFilter,
} from './runner/index.js';

// Errors: classes with a literal `name` and a `code`, and their type guards.
export {
  BasisHooksError,
  isBasisHooksError,
  HookError,
  isHookError,
  ConfigError,
  RunnerError,
  OptionsError,
  isOptionsError,
  PackageMissingError,
  isPackageMissingError,
  PolicyError,
  isPolicyError,
  type ErrorCode,
  type ConfigIssue,
  type OptionalPackage,
  type PolicyProblem,
  type PolicyLocation,
} from './errors/index.js';

// Transports: where a hook lives.
export { interceptorTransport, type Interceptor, type InterceptorFn, type InterceptorOptions } from './transports/in-process/index.js';
export { subprocessTransport, type SubprocessOptions, type DialectName } from './transports/subprocess/index.js';
export {
  componentTransport,
  componentWorkers,
  inspectComponent,
  type ComponentTransport,
  type ComponentWorkers,
  type ComponentWorkersOptions,
  type ComponentInfo,
  type ComponentInspection,
  type ComponentOptions,
  type ComponentGrants,
} from './transports/component/index.js';
// Policy hooks: their engines (@cedar-policy/cedar-wasm, an optional peer; @marcbachmann/cel-js) load on first use.
export { cedarTransport, type CedarTransport, type CedarOptions, type CedarInfo } from './transports/cedar/index.js';
export { celTransport, celFilter, celToolFilter, CelRule, CelRules, type CelTransport, type CelOptions, type CelInfo, type CelFilterOptions } from './transports/cel/index.js';

// Configuration (hooks.json): its schemas, loading, and the operations the CLI runs on it.
export {
  HooksConfig,
  HookConfig,
  CommandHookConfig,
  ComponentHookConfig,
  CedarHookConfig,
  CelHookConfig,
  ComponentGrantsConfig,
  HookCommand,
  BudgetConfig,
  Sha256,
  SUPPORTED_HOOK_SCHEMAS,
  loadConfig,
  parseConfig,
  createRunner,
  checkConfig,
  armRunner,
  armConfig,
  explainCall,
  pinConfig,
  pinConfigText,
  pinTarget,
  hookDigest,
  pinDigest,
  isInterpreter,
  type HookKind,
  type CreateRunnerOptions,
  type CheckReport,
  type HookCheck,
  type HookCheckCode,
  type HookPinInfo,
  type ArmOptions,
  type ArmConfigOptions,
  type ArmReport,
  type HookArmReport,
  type ArmCaseResult,
  type ExplainReport,
  type HookExplanation,
  type PinEdit,
  type PinReport,
  type PinTarget,
  type HookDigest,
  type ConfigAuditOptions,
} from './config/index.js';
// Canary cases, for armRunner/armConfig.
export { TestCase, Expectation, parseCases, type ParsedCases, type LocatedCase } from './cases/index.js';

// The audit trail: a file sink, and the summary and page `basis-hooks audit` prints.
export {
  openAuditFile,
  summarizeAudit,
  summarizeAuditFile,
  writeAuditPage,
  type AuditFileSink,
  type AuditFileOptions,
  type AuditFileStats,
  type AuditSummary,
  type HookSummary,
  type ToolSummary,
  type Histogram,
  type SkippedLine,
  type AgentSummary,
  type LatencySplit,
  type AuditPageOptions,
} from './audit/index.js';

// Telemetry: the runner's options, and W3C trace-context propagation.
export {
  contextFromCarrier,
  contextFromEnvironment,
  carrierOf,
  parseTraceparent,
  formatTraceparent,
  type TelemetryOptions,
  type TelemetryProviders,
  type TraceCarrier,
  type TraceFields,
} from './telemetry/index.js';
