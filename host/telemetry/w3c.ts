import { createTraceState, type SpanContext } from '@opentelemetry/api';

/*
 * W3C Trace Context (https://www.w3.org/TR/trace-context/), the format MCP carries in `_meta` and
 * agents put in the environment (`TRACEPARENT`). Parsed here, not through the API's global
 * propagator: that one is a no-op until an SDK registers one, and these carriers are W3C whatever
 * the application configured for HTTP.
 */

const HEX_32 = /^[0-9a-f]{32}$/;
const HEX_16 = /^[0-9a-f]{16}$/;
const HEX_2 = /^[0-9a-f]{2}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** Longest `traceparent` read (a later version may append fields; nothing legitimate is this long). */
const MAX_TRACEPARENT = 512;

/**
 * The remote span context a `traceparent` (and optional `tracestate`) names, or undefined when the
 * value is not a valid one: wrong length or case, an all-zero id, version `ff`, or version `00` with
 * extra fields. A later version's extra fields are ignored, as the specification asks.
 *
 * @example
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')
 * // { traceId: '4bf9…4736', spanId: '00f0…02b7', traceFlags: 1, isRemote: true }
 */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > MAX_TRACEPARENT) return undefined;
  const value = traceparent.trim();
  const parts = value.split('-');
  const [version, traceId, spanId, flags] = parts;
  if (version === undefined || traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  if (!HEX_2.test(version) || version === 'ff') return undefined;
  if (version === '00' && parts.length !== 4) return undefined;
  if (!HEX_32.test(traceId) || traceId === ZERO_TRACE) return undefined;
  if (!HEX_16.test(spanId) || spanId === ZERO_SPAN) return undefined;
  if (!HEX_2.test(flags)) return undefined;
  const context: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  if (typeof tracestate === 'string' && tracestate.trim() !== '') context.traceState = createTraceState(tracestate.slice(0, MAX_TRACEPARENT * 2));
  return context;
}

/** The `traceparent` of a span context (version 00). */
export function formatTraceparent(context: SpanContext): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}
