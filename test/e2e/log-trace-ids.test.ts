/**
 * Trace ids on tsmcp's log lines, with the real OpenTelemetry SDK: a line a server or a client
 * writes while a span is active carries that span's `trace_id` and `span_id` (a server's failure
 * line, those of the request's own server span, in memory and over HTTP); a line written with no
 * active span reaches the logger unchanged.
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/client.js";
import { McpError } from "../../packages/tsmcp/src/protocol/errors.js";
import { Server } from "../../packages/tsmcp/src/server/server.js";
import { withTraceFields } from "../../packages/tsmcp/src/telemetry/log-fields.js";
import { serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import { recordingLogger } from "../helpers/logs.js";
import { modern, post } from "../helpers/mcp-post.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("log-trace-ids.test");

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});

afterAll(async () => {
  context.disable();
  await provider.shutdown();
});

/** A server whose only tool throws an unexpected error, which the server logs. */
function failingServer(logger = recordingLogger(), telemetry: false | undefined = undefined) {
  const server = new Server("failing", {
    version: "1.0.0",
    logger,
    telemetry: telemetry ?? { tracerProvider: provider },
    onListTools: () => ({ tools: [{ name: "explode", inputSchema: { type: "object" } }] }),
    onCallTool: () => {
      throw new Error("the disk is on fire");
    },
  });
  return { server, logger };
}

/** The one finished `tools/call explode` server span. */
function serverSpanOfCall() {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === "tools/call explode");
  expect(spans).toHaveLength(1);
  return (spans[0] as (typeof spans)[number]).spanContext();
}

describe("trace ids on log lines", () => {
  it("a server logs a throwing handler with the ids of the request's server span, under the caller's trace", async () => {
    exporter.reset();
    const { server, logger } = failingServer();
    const client = await Client.connect(server, { telemetry: false });
    const traceId = await tracer.startActiveSpan("caller", async (span) => {
      await expect(client.callTool("explode")).rejects.toBeInstanceOf(McpError);
      span.end();
      return span.spanContext().traceId;
    });
    await client.close();
    const failure = logger.records.find(({ message }) => message === "handler for tools/call failed");
    expect(failure?.level).toBe("error");
    expect((failure?.fields?.error as Error | undefined)?.message).toBe("the disk is on fire");
    const serverSpan = serverSpanOfCall();
    expect(serverSpan.traceId).toBe(traceId);
    expect(failure?.fields?.trace_id).toBe(serverSpan.traceId);
    expect(failure?.fields?.span_id).toBe(serverSpan.spanId);
  });

  it("a server served over HTTP logs a throwing handler with the ids of the request's server span", async () => {
    exporter.reset();
    const { server, logger } = failingServer();
    const handle = await serve(server, { port: 0, host: "127.0.0.1" });
    try {
      const answer = await post(handle.url, modern("tools/call", { name: "explode", arguments: {} }));
      expect((answer.body as { error?: { code?: number } }).error?.code).toBe(-32603);
    } finally {
      await handle.close();
    }
    const failure = logger.records.find(({ message }) => message === "handler for tools/call failed");
    const serverSpan = serverSpanOfCall();
    expect(failure?.fields?.trace_id).toBe(serverSpan.traceId);
    expect(failure?.fields?.span_id).toBe(serverSpan.spanId);
  });

  it("a server logs the same failure with no trace fields when no span is active", async () => {
    const { server, logger } = failingServer(recordingLogger(), false);
    const client = await Client.connect(server, { telemetry: false });
    await expect(client.callTool("explode")).rejects.toBeInstanceOf(McpError);
    await client.close();
    const failure = logger.records.find(({ message }) => message === "handler for tools/call failed");
    expect(failure?.fields).toBeDefined();
    expect(Object.keys(failure?.fields ?? {})).toEqual(["error"]);
  });

  it("the server's logger is one wrapper of the given logger, adding fields without touching the caller's", () => {
    const logger = recordingLogger();
    const first = new Server("a", { logger }).logger;
    expect(new Server("b", { logger }).logger).toBe(first);
    expect(withTraceFields(first)).toBe(first);
    const fields = { step: 1 };
    tracer.startActiveSpan("inside", (span) => {
      first.warn("inside a span", fields);
      span.end();
    });
    first.warn("outside any span", fields);
    expect(fields).toEqual({ step: 1 });
    expect(logger.records[0]?.fields).toMatchObject({
      step: 1,
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(logger.records[1]?.fields).toBe(fields);
  });

  it("a partial logger keeps its shape: only the methods it has are wrapped", () => {
    const lines: string[] = [];
    const wrapped = withTraceFields({ error: (message: string) => lines.push(message) });
    expect(Object.keys(wrapped)).toEqual(["error"]);
    wrapped.error("once");
    expect(lines).toEqual(["once"]);
  });
});
