/**
 * With `@opentelemetry/api` present but nothing registered in it, a server or client records
 * nothing and builds nothing per request (the bench's "API, no provider" row); once a provider is
 * registered, the next request records.
 */
import { metrics, trace } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { Client } from "../client/index.js";
import { MCPServer } from "../server/index.js";
import { requestTraceOf } from "../server/request-trace.js";
import { telemetryFor } from "./telemetry.js";

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe("recording only when something records", () => {
  it("says nothing records with the API present and no provider registered", () => {
    expect(telemetryFor("server", "1.0.0", true)?.recording()).toBe(false);
  });

  it("records once a tracer provider or a meter provider is registered globally, or one is given", () => {
    const telemetry = telemetryFor("server", "1.0.0", true);
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    expect(telemetry?.recording()).toBe(true);
    trace.disable();
    expect(telemetry?.recording()).toBe(false);
    metrics.setGlobalMeterProvider(new MeterProvider());
    expect(telemetry?.recording()).toBe(true);
    metrics.disable();
    expect(telemetry?.recording()).toBe(false);
    expect(telemetryFor("client", "1.0.0", { tracerProvider: new BasicTracerProvider() })?.recording()).toBe(
      true,
    );
  });

  it("attaches no trace record to a request until a provider is registered, then records the next one", async () => {
    const mcp = new MCPServer("quiet", { logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const traced: boolean[] = [];
    mcp.use(async (request, next) => {
      traced.push(requestTraceOf(request.context) !== undefined);
      return next(request);
    });
    mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
    const client = await Client.connect(mcp, { telemetry: false });
    await client.callTool("echo", { text: "one" });
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    await client.callTool("echo", { text: "two" });
    await client.close();
    expect(traced.slice(-2)).toEqual([false, true]);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("tools/call echo");
  });
});
