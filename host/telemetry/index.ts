/**
 * OpenTelemetry traces and metrics of the chain, through `@opentelemetry/api` only: nothing is
 * recorded until the application registers an SDK (the library never starts one), and the tool's
 * input and output are recorded only with `telemetry_payloads`. W3C trace context helpers for the
 * carriers agents and MCP use.
 */
export type { TelemetryOptions } from './options.js';
export type { TelemetryProviders } from './sources.js';
export { contextFromCarrier, contextFromEnvironment, carrierOf, type TraceCarrier, type TraceFields } from './propagation.js';
export { parseTraceparent, formatTraceparent } from './w3c.js';
export { SPAN, ATTR, SEMCONV, METRIC, SCOPE_NAME, DURATION_BUCKETS_S } from './names.js';
export { PAYLOAD_MAX_CHARS } from './payload.js';
