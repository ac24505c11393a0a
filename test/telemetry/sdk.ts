/**
 * The official OpenTelemetry SDK, set up for tests: a tracer provider exporting to memory (simple
 * processor: a span is there as soon as it ends) and a meter provider whose reader collects on demand.
 */
import { AggregationTemporality, MeterProvider, MetricReader, DataPointType, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';

/** A reader that collects when asked. */
export class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
  async metrics(): Promise<ResourceMetrics> {
    const { resourceMetrics, errors } = await this.collect();
    if (errors.length > 0) throw new Error(`collect failed: ${errors.map(String).join('; ')}`);
    return resourceMetrics;
  }
}

export interface TestSdk {
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
  readonly reader: PullReader;
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

export function testSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    exporter,
    reader,
    spans: () => exporter.getFinishedSpans(),
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** One metric's data points as `{ attributes, value }` (a histogram's value is its count and sum). */
export async function points(reader: PullReader, name: string): Promise<Array<{ attributes: Record<string, unknown>; value: number | { count: number; sum: number } }>> {
  const collected = await reader.metrics();
  for (const scope of collected.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name) continue;
      return metric.dataPoints.map((p) => ({
        attributes: { ...p.attributes },
        value: metric.dataPointType === DataPointType.HISTOGRAM ? { count: (p.value as { count: number }).count, sum: (p.value as { sum: number }).sum } : (p.value as number),
      }));
    }
  }
  return [];
}

/** Everything the SDK holds (spans and metrics), as text: what a secret must never be found in. */
export async function everything(sdk: TestSdk): Promise<string> {
  const spans = sdk.spans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events, links: s.links, resource: s.resource.attributes }));
  return JSON.stringify({ spans, metrics: await sdk.reader.metrics() });
}
