/**
 * basis-hooks: a host that runs hooks for AI-agent runtimes. A hook sees every tool call and can
 * allow it, deny it, rewrite its input before it runs, or rewrite its result after.
 *
 * @packageDocumentation
 */
export * from './contract/index.js';
export * from './codec/index.js';
export * from './runner/index.js';
export * from './errors/index.js';
export * from './transports/in-process/index.js';
export * from './transports/subprocess/index.js';
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
export { cedarTransport, policySetDigest, type CedarTransport, type CedarOptions, type CedarInfo } from './transports/cedar/index.js';
export { celTransport, celFilter, celToolFilter, CelRule, CelRules, type CelTransport, type CelOptions, type CelInfo, type CelFilterOptions } from './transports/cel/index.js';
export * from './config/index.js';
export * from './audit/index.js';
export * from './telemetry/index.js';
export { TestCase, Expectation, parseCases, type ParsedCases, type LocatedCase } from './cases/index.js';
// The authoring kit (init, build, inspect, test) is its own entry, `basis-hooks/kit`: running hooks
// never loads a toolchain, and a test checks that nothing here imports it.
