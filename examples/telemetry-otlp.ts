/**
 * The telemetry example's call, exported to an OpenTelemetry collector over OTLP/HTTP: the same
 * setup as `examples/telemetry.ts` with a `BatchSpanProcessor` and the `OTLPTraceExporter` in place
 * of the in-memory exporter. Point it at a collector (`http://127.0.0.1:4318/v1/traces` by default,
 * or the URL given as the first argument); the spans of the `deploy` call arrive there when the
 * provider shuts down (or as batches fill).
 *
 * Run it: `npm run example -- telemetry-otlp [url]`.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { deployOnce } from "./telemetry.js";

/** Where the spans go when no URL is given: a collector's OTLP/HTTP traces endpoint on this host. */
export const DEFAULT_OTLP_TRACES_URL = "http://127.0.0.1:4318/v1/traces";

/** Registers the OpenTelemetry SDK globally, exporting to the OTLP/HTTP endpoint `url`; returns how to flush and undo it. */
export function setUpOtlpTracing(url: string): () => Promise<void> {
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return async () => {
    try {
      await provider.shutdown(); // flushes the spans still batched
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
    }
  };
}

/** `npm run example -- telemetry-otlp [url]`: one `deploy` call, its spans sent to the collector. */
export async function main(args: string[] = []): Promise<void> {
  const url = args[0] ?? DEFAULT_OTLP_TRACES_URL;
  const stop = setUpOtlpTracing(url);
  let deployed: string;
  try {
    deployed = await deployOnce();
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  console.log(deployed);
  try {
    await stop();
    console.log(`spans sent to ${url}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(
      `could not send the spans to ${url} (${reason}): is an OpenTelemetry collector listening there?`,
    );
    process.exitCode = 1;
  }
}
