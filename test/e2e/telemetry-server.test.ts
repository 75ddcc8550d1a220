/**
 * Server spans and metrics with the real OpenTelemetry SDK, over real HTTP: trace context from
 * `_meta` or the headers, both eras, errors, result types, and nothing secret in any of it.
 */
import { createHash } from "node:crypto";
import * as otel from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ElicitResult } from "../../packages/tsmcp/src/protocol/schema/input.js";
import { elicitationRequest, inputRequired, Server } from "../../packages/tsmcp/src/server/index.js";
import type { TelemetryOption } from "../../packages/tsmcp/src/telemetry/options.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import { initialize, legacy, modern, onSession, post } from "../helpers/mcp-post.js";
import { everythingRecorded, histogramPoints, setUpOtel, traceparent } from "../helpers/otel.js";

const otelSetup = setUpOtel();
const SECRET = "s3cr3t-do-not-record";
const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";

const ASK = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

function toolServer(telemetry: TelemetryOption) {
  return new Server("tools", {
    version: "2.0.0",
    telemetry,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    onListTools: () => ({ tools: [] }),
    onCallTool: (_ctx, params) => {
      const nested = otelSetup.tracerProvider.getTracer("user-code").startSpan("user work");
      nested.end();
      switch (params.name) {
        case "boom":
          throw new Error("the handler broke");
        case "fail":
          return { content: [{ type: "text", text: `failed on ${SECRET}` }], isError: true };
        case "ask": {
          const answer = params.inputResponses?.region as ElicitResult | undefined;
          if (answer?.action === "accept") return { content: [{ type: "text", text: `done ${SECRET}` }] };
          return inputRequired({ inputRequests: { region: ASK }, requestState: `state-${SECRET}` });
        }
        default:
          return { content: [{ type: "text", text: `echo ${String(params.arguments?.text)}` }] };
      }
    },
  });
}

let handle: HttpServerHandle;
let quiet: HttpServerHandle;

beforeAll(async () => {
  handle = await serve(toolServer(otelSetup.telemetry), { port: 0 });
  quiet = await serve(toolServer(false), { port: 0 });
});

afterEach(() => otelSetup.reset());

afterAll(async () => {
  await handle?.close();
  await quiet?.close();
  await otelSetup.teardown();
});

function serverSpans() {
  return otelSetup.spans().filter((span) => span.instrumentationScope.name === "tsmcp");
}

function withTraceparent(request: ReturnType<typeof modern>, value: string) {
  return {
    ...request,
    params: { ...request.params, _meta: { ...(request.params?._meta as object), traceparent: value } },
  };
}

describe("server spans over HTTP at 2026-07-28", () => {
  it("continues the trace the request's _meta carries, and nests the handler's own spans under it", async () => {
    const request = withTraceparent(
      modern("tools/call", { name: "echo", arguments: { text: SECRET } }),
      traceparent(CLIENT_TRACE, CLIENT_SPAN),
    );
    const answer = await post(handle.url, request);
    expect(answer.body.result.content).toEqual([{ type: "text", text: `echo ${SECRET}` }]);
    const [span] = serverSpans();
    expect(span?.name).toBe("tools/call echo");
    expect(span?.kind).toBe(otel.SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(span?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span?.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": String(request.id),
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
      "tsmcp.era": "stateless",
      "tsmcp.mrtr.round": 1,
      "tsmcp.result_type": "complete",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
    });
    const user = otelSetup.spans().find((s) => s.name === "user work");
    expect(user?.parentSpanContext?.spanId).toBe(span?.spanContext().spanId);
    expect(everythingRecorded(otelSetup.spans())).not.toContain(SECRET);
  });

  it("falls back to the traceparent header when _meta carries none", async () => {
    const headerTrace = "5bf92f3577b34da6a3ce929d0e0e4737";
    await post(handle.url, modern("tools/list"), undefined, {
      traceparent: traceparent(headerTrace, CLIENT_SPAN),
    });
    const [span] = serverSpans();
    expect(span?.name).toBe("tools/list");
    expect(span?.spanContext().traceId).toBe(headerTrace);
    expect(span?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it("records invalid params as -32602 with the wire message, and an error status", async () => {
    const answer = await post(handle.url, modern("tools/call", { name: "echo", arguments: [SECRET] }));
    expect(answer.body.error.code).toBe(-32602);
    const [span] = serverSpans();
    expect(span?.attributes["rpc.response.status_code"]).toBe("-32602");
    expect(span?.attributes["error.type"]).toBe("-32602");
    expect(span?.status).toEqual({ code: otel.SpanStatusCode.ERROR, message: answer.body.error.message });
    expect(span?.events).toEqual([]);
  });

  it("records a throwing handler as -32603 with the exception, while the wire says only Internal error", async () => {
    const answer = await post(handle.url, modern("tools/call", { name: "boom" }));
    expect(answer.body.error).toMatchObject({ code: -32603, message: "Internal error" });
    const [span] = serverSpans();
    expect(span?.attributes["error.type"]).toBe("-32603");
    expect(span?.status).toEqual({ code: otel.SpanStatusCode.ERROR, message: "Internal error" });
    expect(span?.events.map((event) => [event.name, event.attributes?.["exception.message"]])).toEqual([
      ["exception", "the handler broke"],
    ]);
  });

  it("records a tool result with isError as a tool_error", async () => {
    await post(handle.url, modern("tools/call", { name: "fail" }));
    const [span] = serverSpans();
    expect(span?.attributes["error.type"]).toBe("tool_error");
    expect(span?.attributes["rpc.response.status_code"]).toBeUndefined();
    expect(span?.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(everythingRecorded(otelSetup.spans())).not.toContain(SECRET);
  });

  it("records an InputRequiredResult as input_required with the keys asked, never the state or answers", async () => {
    const first = await post(handle.url, modern("tools/call", { name: "ask", arguments: { text: SECRET } }));
    expect(first.body.result.resultType).toBe("input_required");
    await post(
      handle.url,
      modern("tools/call", {
        name: "ask",
        inputResponses: { region: { action: "accept", content: { region: SECRET } } },
        requestState: first.body.result.requestState,
      }),
    );
    const [asked, answered] = serverSpans();
    expect(asked?.attributes["tsmcp.result_type"]).toBe("input_required");
    expect(asked?.attributes["tsmcp.mrtr.requested_keys"]).toEqual(["region"]);
    expect(answered?.attributes["tsmcp.result_type"]).toBe("complete");
    expect(answered?.attributes["tsmcp.mrtr.input_keys"]).toEqual(["region"]);
    expect(everythingRecorded(otelSetup.spans())).not.toContain(SECRET);
    const metrics = await otelSetup.metrics();
    expect(JSON.stringify([...metrics.values()])).not.toContain(SECRET);
  });

  it("records a notification as a span of its own", async () => {
    const answer = await post(handle.url, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 99, _meta: modern("x").params?._meta },
    });
    expect(answer.status).toBe(202);
    const [span] = serverSpans();
    expect(span?.name).toBe("notifications/cancelled");
    expect(span?.attributes["jsonrpc.request.id"]).toBeUndefined();
    expect(span?.attributes["tsmcp.result_type"]).toBeUndefined();
  });

  it("records nothing with telemetry: false, even with global providers registered", async () => {
    otel.trace.setGlobalTracerProvider(otelSetup.tracerProvider);
    try {
      const answer = await post(quiet.url, modern("tools/call", { name: "echo", arguments: { text: "x" } }));
      expect(answer.body.result.content).toEqual([{ type: "text", text: "echo x" }]);
    } finally {
      otel.trace.disable();
    }
    expect(serverSpans()).toEqual([]);
  });

  it("records nothing, and answers, when no provider is registered", async () => {
    const server = toolServer(true);
    const response = await server.handle(modern("tools/call", { name: "ask" }), {
      signal: new AbortController().signal,
    });
    expect(response).toMatchObject({ result: { resultType: "input_required" } });
    const failed = await server.handle(modern("tools/call", { name: "boom" }), {
      signal: new AbortController().signal,
    });
    expect(failed).toMatchObject({ error: { code: -32603 } });
    expect(serverSpans()).toEqual([]);
  });
});

describe("server spans of a 2025-era session", () => {
  it("records its requests and notifications with tsmcp.era handshake and the session id hashed", async () => {
    const opened = await post(handle.url, initialize());
    const sessionId = opened.sessionId as string;
    const hashed = createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
    const headers = onSession(sessionId);
    await post(handle.url, { jsonrpc: "2.0", method: "notifications/initialized" }, undefined, headers);
    const called = legacy("tools/call", {
      name: "echo",
      arguments: { text: SECRET },
      _meta: { traceparent: traceparent(CLIENT_TRACE, CLIENT_SPAN) },
    });
    await post(handle.url, called, undefined, headers);
    const [init, notified, call] = serverSpans();
    expect(init?.name).toBe("initialize");
    expect(init?.attributes["mcp.protocol.version"]).toBe("2025-11-25");
    expect(notified?.name).toBe("notifications/initialized");
    expect(notified?.attributes).toMatchObject({ "tsmcp.era": "handshake", "mcp.session.id": hashed });
    expect(call?.name).toBe("tools/call echo");
    expect(call?.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(call?.attributes).toMatchObject({
      "tsmcp.era": "handshake",
      "mcp.session.id": hashed,
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "tsmcp.result_type": "complete",
    });
    expect(everythingRecorded(otelSetup.spans())).not.toContain(sessionId);
    expect(everythingRecorded(otelSetup.spans())).not.toContain(SECRET);

    const ended = await fetch(handle.url, { method: "DELETE", headers });
    expect(ended.status).toBe(204);
    const sessions = histogramPoints((await otelSetup.metrics()).get("mcp.server.session.duration"));
    expect(sessions.map((point) => [point.attributes, point.value.count])).toEqual([
      [{ "mcp.protocol.version": "2025-11-25", "network.transport": "tcp" }, 1],
    ]);
  });
});

describe("server metrics", () => {
  it("records the operation histogram with its unit string, method, tool, result and error attributes, and rounds per completed call", async () => {
    await post(handle.url, modern("tools/call", { name: "echo", arguments: { text: "a" } }));
    await post(handle.url, modern("tools/call", { name: "boom" }));
    const metrics = await otelSetup.metrics();
    // The histogram's declared unit string (the conventions' "s"), not a measured time.
    const operations = metrics.get("mcp.server.operation.duration");
    expect(operations?.descriptor.unit).toBe("s");
    const points = histogramPoints(operations).map((point) => point.attributes);
    expect(points).toContainEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
      "tsmcp.result_type": "complete",
    });
    expect(points).toContainEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "boom",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
      "error.type": "-32603",
      "rpc.response.status_code": "-32603",
    });
    const rounds = metrics.get("tsmcp.mrtr.rounds");
    expect(rounds?.descriptor.unit).toBe("{round}");
    expect(histogramPoints(rounds)).toContainEqual(
      expect.objectContaining({
        attributes: {
          "mcp.method.name": "tools/call",
          "gen_ai.tool.name": "echo",
          "gen_ai.operation.name": "execute_tool",
        },
      }),
    );
  });
});
