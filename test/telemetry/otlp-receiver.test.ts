/**
 * The test receiver's decoder (test/helpers/otlp-receiver.ts) against the official encoder: spans and
 * metrics recorded by the official SDK, serialized by `@opentelemetry/otlp-transformer`'s
 * `JsonTraceSerializer` / `JsonMetricsSerializer` (what the OTLP/HTTP exporters send), decode to the
 * same ids, names, parents, attributes and values. So what the end-to-end tests read is what was sent.
 */
import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { JsonMetricsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMetrics, decodeTraces } from '../helpers/otlp-receiver.js';
import { testSdk } from './sdk.js';

function body(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) throw new Error('the serializer produced nothing');
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** Attribute values the API accepts (no NaN: JSON has none; integers and doubles kept apart as the SDK does). */
const attributeValue = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).filter((d) => !Number.isInteger(d)),
  fc.array(fc.string(), { maxLength: 4 }),
);

describe('the receiver decodes what the official serializer encodes', () => {
  it('spans: ids, parent, trace state, name, kind, status and every attribute', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), attributeValue, { maxKeys: 8 }), fc.string({ minLength: 1 }), async (attributes, name) => {
        const sdk = testSdk();
        try {
          const tracer = sdk.tracerProvider.getTracer('check');
          const parent = tracer.startSpan('parent', {}, trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true, traceState: createTraceState('vendor=x,other=y') }));
          const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: attributes as Attributes }, trace.setSpan(ROOT_CONTEXT, parent));
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
          span.end();
          parent.end();
          const spans = sdk.spans();
          const decoded = decodeTraces(body(JsonTraceSerializer.serializeRequest(spans)));
          expect(decoded.map((s) => s.spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
          const [child, root] = decoded;
          expect(root?.parentSpanId).toBe('00f067aa0ba902b7');
          expect(child?.parentSpanId).toBe(root?.spanId);
          expect(child?.traceState).toBe('vendor=x,other=y');
          expect(child?.traceId).toBe(parent.spanContext().traceId);
          expect(child?.name).toBe(name);
          expect(child?.kind).toBe(SpanKind.CLIENT + 1); // OTLP numbers kinds from 1 (INTERNAL)
          expect(child?.status).toEqual({ code: 2, message: 'boom' });
          expect(child?.attributes).toEqual(spans[0]?.attributes);
        } finally {
          await sdk.shutdown();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('metrics: counters and histograms with their attributes', async () => {
    const sdk = testSdk();
    try {
      const meter = sdk.meterProvider.getMeter('check');
      const counter = meter.createCounter('decisions', { unit: '{decision}' });
      counter.add(3, { hook: 'guard', decision: 'deny' });
      counter.add(1, { hook: 'guard', decision: 'allow' });
      const histogram = meter.createHistogram('duration', { unit: 's' });
      histogram.record(0.25, { hook: 'guard' });
      histogram.record(0.75, { hook: 'guard' });
      const decoded = decodeMetrics(body(JsonMetricsSerializer.serializeRequest(await sdk.reader.metrics())));
      expect(decoded.filter((p) => p.metric === 'decisions').map((p) => [p.kind, p.unit, p.attributes, p.value])).toEqual([
        ['sum', '{decision}', { hook: 'guard', decision: 'deny' }, 3],
        ['sum', '{decision}', { hook: 'guard', decision: 'allow' }, 1],
      ]);
      expect(decoded.filter((p) => p.metric === 'duration').map((p) => [p.kind, p.unit, p.attributes, p.value, p.sum])).toEqual([['histogram', 's', { hook: 'guard' }, 2, 1]]);
    } finally {
      await sdk.shutdown();
    }
  });

  it('refuses what is not an OTLP/JSON request', () => {
    expect(() => decodeTraces({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'nothex', spanId: 'x', name: 'n', startTimeUnixNano: 0, endTimeUnixNano: 0 }] }] }] })).toThrow();
    expect(() => decodeMetrics({ resourceMetrics: 'no' })).toThrow();
  });
});
