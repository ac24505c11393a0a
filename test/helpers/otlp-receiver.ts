/**
 * An OTLP/HTTP receiver on loopback, for tests (the OpenTelemetry Collector is not installable here):
 * it takes what the official OTLP/HTTP exporters send — `POST /v1/traces` and `/v1/metrics`, OTLP/JSON
 * — validates every request against the OTLP/JSON shape (zod) and keeps the spans and data points.
 *
 * `@opentelemetry/otlp-transformer` (0.301) encodes requests and decodes responses, but has no request
 * decoder; test/telemetry/otlp-receiver.test.ts holds this decoder to the transformer's encoder
 * (`JsonTraceSerializer`, `JsonMetricsSerializer`): what it encodes, this decodes to the same spans
 * and points.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** OTLP/JSON's AnyValue (proto3 JSON: int64 as a string or a number). */
type AnyValueJson = {
  stringValue?: string | undefined;
  boolValue?: boolean | undefined;
  intValue?: string | number | undefined;
  doubleValue?: number | undefined;
  arrayValue?: { values?: AnyValueJson[] | undefined } | undefined;
  kvlistValue?: { values?: Array<{ key: string; value?: AnyValueJson | undefined }> | undefined } | undefined;
  bytesValue?: string | undefined;
};
const AnyValue: z.ZodType<AnyValueJson> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: z.union([z.string(), z.number()]).optional(),
    doubleValue: z.number().optional(),
    arrayValue: z.object({ values: z.array(AnyValue).optional() }).optional(),
    kvlistValue: z.object({ values: z.array(z.object({ key: z.string(), value: AnyValue.optional() })).optional() }).optional(),
    bytesValue: z.string().optional(),
  }),
);
const KeyValue = z.object({ key: z.string(), value: AnyValue.optional() });
const Attributes = z.array(KeyValue).optional();
const Resource = z.object({ attributes: Attributes }).optional();
const Scope = z.object({ name: z.string().optional(), version: z.string().optional() }).optional();
const Int64 = z.union([z.string(), z.number()]);

const SpanJson = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z.string().optional(),
  traceState: z.string().optional(),
  name: z.string(),
  kind: z.number().int().optional(),
  startTimeUnixNano: Int64,
  endTimeUnixNano: Int64,
  attributes: Attributes,
  status: z.object({ code: z.number().int().optional(), message: z.string().optional() }).optional(),
});
export const TraceRequest = z.object({
  resourceSpans: z.array(z.object({ resource: Resource, scopeSpans: z.array(z.object({ scope: Scope, spans: z.array(SpanJson).optional() })).optional() })).optional(),
});

const NumberPoint = z.object({ attributes: Attributes, asInt: Int64.optional(), asDouble: z.number().optional() });
const HistogramPoint = z.object({ attributes: Attributes, count: Int64, sum: z.number().optional(), bucketCounts: z.array(Int64).optional(), explicitBounds: z.array(z.number()).optional() });
const MetricJson = z.object({
  name: z.string(),
  unit: z.string().optional(),
  description: z.string().optional(),
  sum: z.object({ dataPoints: z.array(NumberPoint) }).optional(),
  gauge: z.object({ dataPoints: z.array(NumberPoint) }).optional(),
  histogram: z.object({ dataPoints: z.array(HistogramPoint) }).optional(),
});
export const MetricsRequest = z.object({
  resourceMetrics: z.array(z.object({ resource: Resource, scopeMetrics: z.array(z.object({ scope: Scope, metrics: z.array(MetricJson).optional() })).optional() })).optional(),
});

/** A span as received: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent for a root span. */
  readonly parentSpanId: string | undefined;
  /** The W3C tracestate the span carries (absent: none). */
  readonly traceState: string | undefined;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly status: { readonly code: number; readonly message: string | undefined };
  readonly resource: Record<string, unknown>;
  readonly scope: string | undefined;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

/** One data point of a metric as received. */
export interface ReceivedPoint {
  readonly metric: string;
  readonly unit: string | undefined;
  readonly kind: 'sum' | 'gauge' | 'histogram';
  readonly attributes: Record<string, unknown>;
  /** A sum's or gauge's value; a histogram's count. */
  readonly value: number;
  /** A histogram's sum. */
  readonly sum: number | undefined;
  readonly resource: Record<string, unknown>;
}

function plain(value: AnyValueJson | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  if (value.kvlistValue !== undefined) return Object.fromEntries((value.kvlistValue.values ?? []).map((kv) => [kv.key, plain(kv.value)]));
  if (value.bytesValue !== undefined) return value.bytesValue;
  return undefined;
}

function attributes(list: z.infer<typeof Attributes>): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

/** Decode an OTLP/JSON trace export request. Throws (a zod error) when it is not one. */
export function decodeTraces(body: unknown): ReceivedSpan[] {
  const request = TraceRequest.parse(body);
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
          traceState: span.traceState === undefined || span.traceState === '' ? undefined : span.traceState,
          name: span.name,
          kind: span.kind ?? 0,
          attributes: attributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message },
          resource,
          scope: ss.scope?.name,
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
        });
      }
    }
  }
  return out;
}

/** Decode an OTLP/JSON metrics export request. Throws (a zod error) when it is not one. */
export function decodeMetrics(body: unknown): ReceivedPoint[] {
  const request = MetricsRequest.parse(body);
  const out: ReceivedPoint[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    const resource = attributes(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? []) {
      for (const metric of sm.metrics ?? []) {
        for (const kind of ['sum', 'gauge'] as const) {
          for (const p of metric[kind]?.dataPoints ?? []) {
            out.push({ metric: metric.name, unit: metric.unit, kind, attributes: attributes(p.attributes), value: Number(p.asInt ?? p.asDouble ?? 0), sum: undefined, resource });
          }
        }
        for (const p of metric.histogram?.dataPoints ?? []) {
          out.push({ metric: metric.name, unit: metric.unit, kind: 'histogram', attributes: attributes(p.attributes), value: Number(p.count), sum: p.sum, resource });
        }
      }
    }
  }
  return out;
}

/** The receiver: a loopback HTTP server keeping what it was sent. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly points: ReceivedPoint[] = [];
  /** Every request's raw body text (what must never hold a secret). */
  readonly bodies: string[] = [];
  /** Requests that were not valid OTLP/JSON (must stay empty). */
  readonly rejected: string[] = [];
  readonly #server: Server;
  readonly url: string;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = receiver?.take(request.method ?? '', request.url ?? '', String(request.headers['content-type'] ?? ''), text) ?? 500;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  take(method: string, path: string, contentType: string, text: string): number {
    this.bodies.push(text);
    if (method !== 'POST' || !contentType.startsWith('application/json')) {
      this.rejected.push(`${method} ${path} (${contentType})`);
      return 415;
    }
    try {
      const body: unknown = JSON.parse(text);
      if (path === '/v1/traces') this.spans.push(...decodeTraces(body));
      else if (path === '/v1/metrics') this.points.push(...decodeMetrics(body));
      else {
        this.rejected.push(`${method} ${path}`);
        return 404;
      }
      return 200;
    } catch (error) {
      this.rejected.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      return 400;
    }
  }

  /** Resolves once `ready()` holds, or rejects after `timeoutMs` saying what arrived. */
  async waitFor(ready: () => boolean, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() > until) throw new Error(`the receiver did not get what was expected in ${timeoutMs} ms: ${this.spans.length} spans (${[...new Set(this.spans.map((s) => s.name))].join(', ')}), ${this.points.length} points; rejected: ${this.rejected.join('; ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
