/**
 * The tsmcp server of `tsmcp.ts` with OpenTelemetry set up one of three ways, named by the
 * environment's `TSMCP_BENCH_TELEMETRY` (stage 10):
 *
 * - `off`: `telemetry: false`, tsmcp records nothing;
 * - `api`: the default option with `@opentelemetry/api` installed and nothing registered in it
 *   (no provider, no context manager): what an application gets that has the API in its
 *   dependency tree but sets up no SDK;
 * - `provider`: a real SDK: a `BasicTracerProvider` whose `BatchSpanProcessor` exports to an
 *   exporter that drops every span, and a `MeterProvider` with no reader, both passed in the
 *   `telemetry` option, plus the `AsyncLocalStorageContextManager` an SDK registers. Every span
 *   is sampled, built, ended and handed to the processor; only the export is skipped.
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode } from "@opentelemetry/core";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import type * as NodeEntry from "../../packages/tsmcp/src/node/index.js";
import type { HttpServerHandle } from "../../packages/tsmcp/src/transport/http/node/node.js";
import type { ServerSpec } from "../fixtures/tools.js";
import { tsmcpEntry } from "../lib/build.js";
import { createTsmcpServer } from "./tsmcp.js";

/** The three telemetry setups of stage 10. */
export const TELEMETRY_MODES = ["off", "api", "provider"] as const;

/** One telemetry setup of stage 10. */
export type TelemetryMode = (typeof TELEMETRY_MODES)[number];

/** An exporter that accepts every batch and sends nothing. */
const dropEverything: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: async () => {},
};

/**
 * Serves the tsmcp server for `spec` on 127.0.0.1 (a free port) with the telemetry setup
 * `TSMCP_BENCH_TELEMETRY` names; closing it closes the server, then shuts the providers down.
 *
 * @throws Error when `TSMCP_BENCH_TELEMETRY` is not one of {@link TELEMETRY_MODES}.
 */
export async function serveTsmcpTelemetry(spec: ServerSpec): Promise<HttpServerHandle> {
  const mode = process.env.TSMCP_BENCH_TELEMETRY as TelemetryMode | undefined;
  if (mode === undefined || !TELEMETRY_MODES.includes(mode)) {
    throw new Error(`tsmcp-telemetry: set TSMCP_BENCH_TELEMETRY to one of ${TELEMETRY_MODES.join(", ")}`);
  }
  const { serve } = (await import(tsmcpEntry("node"))) as typeof NodeEntry;
  if (mode !== "provider") {
    const telemetry = mode === "off" ? { telemetry: false } : {};
    return serve(createTsmcpServer(spec, telemetry), { host: "127.0.0.1", port: 0 });
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(dropEverything)],
  });
  const meterProvider = new MeterProvider();
  const handle = await serve(createTsmcpServer(spec, { telemetry: { tracerProvider, meterProvider } }), {
    host: "127.0.0.1",
    port: 0,
  });
  return {
    url: handle.url,
    port: handle.port,
    async close() {
      await handle.close();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
    },
  };
}
