/**
 * W3C trace context as the gateway and the bridges read and write it: `traceparent` parsing held to
 * the specification's rules and to the official propagator (`W3CTraceContextPropagator` of
 * `@opentelemetry/core`, what an instrumented upstream uses), `_meta` injection that keeps the other
 * fields, and the environment carrier.
 */
import { ROOT_CONTEXT, trace, TraceFlags, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carrierOf, contextFromCarrier, contextFromEnvironment, formatTraceparent, parseTraceparent } from '../../host/index.js';
import { traceParentOf, withTraceMeta } from '../../host/integrations/mcp/trace-meta.js';

const official = new W3CTraceContextPropagator();
const getter: TextMapGetter<Record<string, unknown>> = { get: (carrier, key) => carrier[key] as string | undefined, keys: (carrier) => Object.keys(carrier) };

/** What the official propagator makes of a traceparent (undefined when it rejects it). */
function officially(traceparent: string): { traceId: string; spanId: string; traceFlags: number } | undefined {
  const span = trace.getSpanContext(official.extract(ROOT_CONTEXT, { traceparent }, getter));
  return span === undefined ? undefined : { traceId: span.traceId, spanId: span.spanId, traceFlags: span.traceFlags };
}

const hex = (n: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));

describe('traceparent', () => {
  it('agrees with the official propagator on valid values, and round-trips through formatTraceparent', () => {
    fc.assert(
      fc.property(hex(32), hex(16), hex(2), (traceId, spanId, flags) => {
        const value = `00-${traceId}-${spanId}-${flags}`;
        const ours = parseTraceparent(value);
        const theirs = officially(value);
        expect(ours === undefined ? undefined : { traceId: ours.traceId, spanId: ours.spanId, traceFlags: ours.traceFlags }).toEqual(theirs);
        if (ours !== undefined) expect(formatTraceparent(ours)).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the official propagator on anything at all (never throws)', () => {
    const near = fc.tuple(fc.constantFrom('00', '01', 'ff', 'cc', '0'), hex(32), hex(16), fc.constantFrom('00', '01', 'zz', '1'), fc.constantFrom('', '-extra', '-', 'x'))
      .map(([v, t, s, f, rest]) => `${v}-${t}-${s}-${f}${rest}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), near), (value) => {
        const ours = parseTraceparent(value);
        const theirs = officially(value);
        expect(ours === undefined).toBe(theirs === undefined);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what the specification refuses', () => {
    const t = '4bf92f3577b34da6a3ce929d0e0e4736';
    const s = '00f067aa0ba902b7';
    expect(parseTraceparent(`00-${t}-${s}-01`)).toMatchObject({ traceId: t, spanId: s, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    expect(parseTraceparent(`00-${'0'.repeat(32)}-${s}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${t}-${'0'.repeat(16)}-01`)).toBeUndefined();
    expect(parseTraceparent(`ff-${t}-${s}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${t.toUpperCase()}-${s}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${t}-${s}-01-extra`)).toBeUndefined();
    // A later version may append fields: they are ignored.
    expect(parseTraceparent(`01-${t}-${s}-01-extra`)?.spanId).toBe(s);
    expect(parseTraceparent(42)).toBeUndefined();
    expect(parseTraceparent(`00-${t}-${s}-01${' '.repeat(1000)}`)).toBeUndefined();
  });

  it('carries tracestate along', () => {
    const context = contextFromCarrier({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=abc,other=1' });
    expect(context && carrierOf(context)).toEqual({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=abc,other=1' });
  });

  it('reads the environment carrier (TRACEPARENT, TRACESTATE)', () => {
    const context = contextFromEnvironment({ TRACEPARENT: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' });
    expect(context === undefined ? undefined : trace.getSpanContext(context)).toMatchObject({ spanId: '00f067aa0ba902b7', traceFlags: 0 });
    expect(contextFromEnvironment({})).toBeUndefined();
    expect(contextFromEnvironment({ TRACEPARENT: 'garbage' })).toBeUndefined();
  });
});

describe('MCP _meta', () => {
  const request = (meta?: Record<string, unknown>): JSONRPCRequest => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { a: 1 }, ...(meta === undefined ? {} : { _meta: meta }) } });

  it('reads the parent from params._meta; ignores a missing or malformed one', () => {
    const parent = traceParentOf(request({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }));
    expect(parent === undefined ? undefined : trace.getSpanContext(parent)?.spanId).toBe('00f067aa0ba902b7');
    expect(traceParentOf(request())).toBeUndefined();
    expect(traceParentOf(request({ traceparent: 'nope' }))).toBeUndefined();
    expect(traceParentOf({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: 'not an object' } } as unknown as JSONRPCRequest)).toBeUndefined();
  });

  it('names a new parent upstream, keeping every other _meta field and the request itself untouched', () => {
    const original = request({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'old=1', baggage: 'tenant=blue', progressToken: 3 });
    const snapshot = structuredClone(original);
    const ours = trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '1111111111111111', traceFlags: 1 });
    const forwarded = withTraceMeta(original, ours);
    expect(forwarded.params).toEqual({ name: 'echo', arguments: { a: 1 }, _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-1111111111111111-01', baggage: 'tenant=blue', progressToken: 3 } });
    expect(original).toEqual(snapshot);
    // The official propagator reads what we wrote.
    expect(officially(String((forwarded.params?._meta as Record<string, unknown>).traceparent))?.spanId).toBe('1111111111111111');
    // A context without a span leaves the request as it is.
    expect(withTraceMeta(original, ROOT_CONTEXT)).toBe(original);
  });
});
