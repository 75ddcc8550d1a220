/**
 * The real OpenTelemetry SDK for a client test: finished spans kept in memory, metrics collected on
 * demand, and the globals a trace needs to cross the wire (an AsyncLocalStorage context manager,
 * W3C trace-context + baggage propagators). Pass `otel.telemetry` as the `telemetry` option (no
 * global providers shared between test files); call `otel.teardown()` in `afterAll`.
 */
import * as api from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A metric reader the test pulls from. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One real-SDK setup for a client test. */
export interface ClientOtel {
  readonly tracerProvider: BasicTracerProvider;
  /** The `telemetry` option that records into this setup. */
  readonly telemetry: { tracerProvider: BasicTracerProvider; meterProvider: MeterProvider };
  /** The finished spans so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The metrics recorded so far, by name. */
  metrics(): Promise<Map<string, MetricData>>;
  /** Forgets the finished spans. */
  reset(): void;
  /** Shuts the providers down and unregisters the globals. */
  teardown(): Promise<void>;
}

/** A meter provider of its own, whose metrics a test collects by name. */
export function collectingMeter(): {
  meterProvider: MeterProvider;
  metrics(): Promise<Map<string, MetricData>>;
} {
  const reader = new CollectingReader();
  return {
    meterProvider: new MeterProvider({ readers: [reader] }),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
  };
}

/** Sets up the real SDK; registers the context manager and the propagators globally. */
export function setUpClientOtel(): ClientOtel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { meterProvider, metrics } = collectingMeter();
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return {
    tracerProvider,
    telemetry: { tracerProvider, meterProvider },
    spans: () => exporter.getFinishedSpans(),
    metrics,
    reset: () => exporter.reset(),
    async teardown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      api.propagation.disable();
      api.context.disable();
    },
  };
}

/** The histogram data points of `metric` (empty when there is none). */
export function histogramPoints(metric: MetricData | undefined): DataPoint<Histogram>[] {
  return metric === undefined ? [] : (metric.dataPoints as DataPoint<Histogram>[]);
}

/** Everything recorded on `spans` (names, attributes, events, links, status) as one string to search. */
export function everythingRecorded(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      links: span.links,
      status: span.status,
    })),
  );
}
