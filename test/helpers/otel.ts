/**
 * The real OpenTelemetry SDK, set up for a test: a tracer provider whose finished spans are kept in
 * memory, a meter provider whose metrics a test collects on demand, and the globals a trace needs
 * to cross a process or a wire (an AsyncLocalStorage context manager, W3C trace-context + baggage
 * propagators). Pass `otel.telemetry` as the `telemetry` option of the server or client under test
 * (no global providers shared between test files); call `otel.teardown()` in `afterAll`/`afterEach`.
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

/** A metric reader a test pulls from with {@link OtelSetup.metrics}. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One real-SDK setup: providers, exporter, reader, and the globals it registered. */
export interface OtelSetup {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
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

/**
 * Sets up the real SDK. Registers the context manager and the propagators globally (they have no
 * per-instance option); the providers stay local unless `global` is true.
 */
export function setUpOtel(options: { global?: boolean } = {}): OtelSetup {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { meterProvider, metrics } = collectingMeter();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
  api.propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  if (options.global === true) {
    api.trace.setGlobalTracerProvider(tracerProvider);
    api.metrics.setGlobalMeterProvider(meterProvider);
  }
  return {
    tracerProvider,
    meterProvider,
    exporter,
    telemetry: { tracerProvider, meterProvider },
    spans: () => exporter.getFinishedSpans(),
    metrics,
    reset: () => exporter.reset(),
    async teardown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      api.trace.disable();
      api.metrics.disable();
      api.propagation.disable();
      api.context.disable();
    },
  };
}

/** The histogram data points of `metric` (empty when it is not a histogram). */
export function histogramPoints(metric: MetricData | undefined): DataPoint<Histogram>[] {
  if (metric === undefined) return [];
  return metric.dataPoints as DataPoint<Histogram>[];
}

/** Every attribute value of every span, links and events included, as one string to search. */
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

/** A W3C `traceparent` for `traceId`/`spanId`, sampled. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
