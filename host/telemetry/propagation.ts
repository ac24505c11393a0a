import { ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent } from './w3c.js';

/**
 * Where W3C trace context travels: MCP's `params._meta` (SEP-414), an HTTP request's headers, a
 * process environment (as `TRACEPARENT`/`TRACESTATE`). Values of any type may arrive; only strings
 * that parse are used.
 */
export interface TraceCarrier {
  readonly traceparent?: unknown;
  readonly tracestate?: unknown;
}

/** What {@link carrierOf} writes into a carrier. */
export interface TraceFields {
  traceparent: string;
  tracestate?: string;
}

/**
 * A context whose span is the remote parent `carrier` names (on top of `base`, default the root), or
 * undefined when it names none (absent or malformed: a bad `traceparent` starts a new trace rather
 * than failing the call).
 */
export function contextFromCarrier(carrier: TraceCarrier | undefined, base: Context = ROOT_CONTEXT): Context | undefined {
  if (carrier === undefined || carrier === null || typeof carrier !== 'object') return undefined;
  const parent = parseTraceparent(carrier.traceparent, carrier.tracestate);
  return parent === undefined ? undefined : trace.setSpanContext(base, parent);
}

/** The W3C fields naming the span of `context` as the parent, or undefined when it has no valid span. */
export function carrierOf(context: Context): TraceFields | undefined {
  const span = trace.getSpanContext(context);
  if (span === undefined || !trace.isSpanContextValid(span)) return undefined;
  const fields: TraceFields = { traceparent: formatTraceparent(span) };
  const state = span.traceState?.serialize();
  if (state !== undefined && state !== '') fields.tracestate = state;
  return fields;
}

/**
 * The trace an agent handed its hook process in the environment (OpenTelemetry's environment carrier:
 * `TRACEPARENT`, `TRACESTATE`), or undefined. Claude Code sets `TRACEPARENT` for the processes it
 * starts when its own tracing is on.
 */
export function contextFromEnvironment(env: NodeJS.ProcessEnv = process.env): Context | undefined {
  return contextFromCarrier({ traceparent: env['TRACEPARENT'], tracestate: env['TRACESTATE'] });
}
