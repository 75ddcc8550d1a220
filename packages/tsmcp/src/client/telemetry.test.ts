/**
 * The client's spans and metrics with the real OpenTelemetry SDK, against a real `MCPServer` in
 * memory and over Streamable HTTP on 127.0.0.1: a span per request, one INTERNAL span per multi
 * round-trip call with a CLIENT span per leg (round, keys answered, keys asked), the trace context
 * in each message's `_meta` as the server receives it, callbacks nested under the call, errors per
 * the conventions, the durations and rounds, and nothing recorded with `telemetry: false`.
 */
import { createHash } from "node:crypto";
import * as api from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  collectingMeter,
  everythingRecorded,
  histogramPoints,
  type OtelSetup,
  setUpOtel,
} from "../../../../test/helpers/otel.js";
import { testRequestStateSecurity } from "../../../../test/helpers/request-state.js";
import type { JSONRPCMessage } from "../protocol/jsonrpc.js";
import { elicitationRequest, inputRequired } from "../server/input-required.js";
import { answering, BOTH_TRANSPORTS, connect, type Via } from "../server/mcp/resolvers-test-fixtures.js";
import { MCPServer } from "../server/mcp/server.js";
import { elicit } from "../server/resolve/elicit.js";
import { resolver } from "../server/resolve/resolver.js";
import type { HttpClientTransport } from "../transport/http/client/client.js";

const SECRET_ANSWER = "s3cret-answer-7f1c";
const SECRET_ARGUMENT = "s3cret-argument-02ab";

const otel: OtelSetup = setUpOtel();
afterEach(() => otel.reset());
afterAll(() => otel.teardown());

/** What the server received of each `tools/call` leg: its `_meta` and its `requestState`. */
interface Received {
  meta: Record<string, unknown>;
  requestState: string | undefined;
}

/** A server whose `enter` tool asks who you are, then (knowing it) asks to confirm: two rounds. */
function twoQuestionServer(legacy = false) {
  const login = resolver("login", () => elicit("Who are you?", z.object({ user: z.string() })));
  const confirm = resolver("confirm", { needs: { login } }, ({ needs }) =>
    elicit(`Proceed as ${needs.login.user}?`, z.object({ ok: z.boolean() })),
  );
  const mcp = new MCPServer("rounds", {
    requestStateSecurity: testRequestStateSecurity(),
    ...(legacy ? { legacyInputRequired: "fulfil" as const } : {}),
  });
  const received: Received[] = [];
  mcp.use(async (request, next) => {
    if (request.method === "tools/call") {
      const params = request.params as { _meta?: Record<string, unknown>; requestState?: string };
      received.push({ meta: { ...params._meta }, requestState: params.requestState });
    }
    return next(request);
  });
  mcp.tool("enter", { resolve: { login, confirm } }, (_args, { resolved }) =>
    resolved.confirm.ok ? `Welcome, ${resolved.login.user}` : "Turned away",
  );
  mcp.tool("fails", { inputSchema: z.object({ note: z.string() }) }, () => ({
    content: [{ type: "text", text: "no" }],
    isError: true,
  }));
  return { mcp, received };
}

const byStart = (spans: readonly ReadableSpan[]) =>
  [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.each(BOTH_TRANSPORTS)("a multi round-trip call's spans, %s", (via: Via) => {
  it("records one INTERNAL call span and a CLIENT span per leg under it, with rounds and keys, in one trace", async () => {
    const { mcp } = twoQuestionServer();
    const { callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback, telemetry: otel.telemetry });
    otel.reset();
    await client.callTool("enter");

    const spans = otel.spans();
    const call = spans.find((span) => span.kind === api.SpanKind.INTERNAL);
    expect(call?.name).toBe("tools/call enter");
    expect(call?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "enter",
      "gen_ai.operation.name": "execute_tool",
      "tsmcp.mrtr.round": 3,
      "tsmcp.result_type": "complete",
    });
    const legs = byStart(spans.filter((span) => span.kind === api.SpanKind.CLIENT));
    expect(legs.map((leg) => leg.name)).toEqual(["tools/call enter", "tools/call enter", "tools/call enter"]);
    expect(legs.map(parentOf)).toEqual(Array(3).fill(call?.spanContext().spanId));
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(legs.map((leg) => leg.attributes["tsmcp.mrtr.round"])).toEqual([1, 2, 3]);
    expect(legs.map((leg) => leg.attributes["tsmcp.mrtr.input_keys"])).toEqual([
      undefined,
      ["login"],
      ["confirm"],
    ]);
    expect(legs.map((leg) => leg.attributes["tsmcp.mrtr.requested_keys"])).toEqual([
      ["login"],
      ["confirm"],
      undefined,
    ]);
    expect(legs.map((leg) => leg.attributes["tsmcp.result_type"])).toEqual([
      "input_required",
      "input_required",
      "complete",
    ]);
    expect(legs[0]?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "enter",
      "mcp.protocol.version": "2026-07-28",
      "tsmcp.era": "stateless",
    });
    expect(typeof legs[0]?.attributes["jsonrpc.request.id"]).toBe("string");
    if (via === "http") {
      expect(legs[0]?.attributes).toMatchObject({
        "network.transport": "tcp",
        "server.address": "127.0.0.1",
      });
      expect(legs[0]?.attributes["server.port"]).toBeGreaterThan(0);
    } else {
      expect(legs[0]?.attributes["network.transport"]).toBeUndefined();
    }
  });

  it("writes each leg's trace context into the _meta the server receives, leaving the caller's meta as it was", async () => {
    const { mcp, received } = twoQuestionServer();
    const { callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback, telemetry: otel.telemetry });
    otel.reset();
    const meta = Object.freeze({ "example.com/tag": "kept" });
    await client.callTool("enter", undefined, { meta });

    const legs = byStart(otel.spans().filter((span) => span.kind === api.SpanKind.CLIENT));
    expect(received.map((leg) => leg.meta.traceparent)).toEqual(
      legs.map((leg) => `00-${leg.spanContext().traceId}-${leg.spanContext().spanId}-01`),
    );
    expect(received.map((leg) => leg.meta["example.com/tag"])).toEqual(["kept", "kept", "kept"]);
    expect(meta).toEqual({ "example.com/tag": "kept" });
  });

  it("runs the callbacks inside the call span, so the application's spans nest under it", async () => {
    const { mcp } = twoQuestionServer();
    const tracer = otel.tracerProvider.getTracer("app");
    const client = await connect(mcp, via, {
      telemetry: otel.telemetry,
      elicitationCallback: async (_params, context) => {
        tracer.startSpan(`ask ${context.key}`).end();
        const content: Record<string, string | boolean> =
          context.key === "login" ? { user: "ada" } : { ok: true };
        return { action: "accept", content };
      },
    });
    otel.reset();
    await client.callTool("enter");
    const spans = otel.spans();
    const call = spans.find(
      (span) => span.kind === api.SpanKind.INTERNAL && span.name === "tools/call enter",
    );
    expect(call).toBeDefined();
    const asked = spans.filter((span) => span.name.startsWith("ask "));
    expect(asked.map((span) => span.name)).toEqual(["ask login", "ask confirm"]);
    expect(asked.map(parentOf)).toEqual([call?.spanContext().spanId, call?.spanContext().spanId]);
  });

  it("never records an answer's value, an argument or the requestState", async () => {
    const { mcp, received } = twoQuestionServer();
    const { callback } = answering({ login: { user: SECRET_ANSWER }, confirm: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback, telemetry: otel.telemetry });
    await client.callTool("enter");
    await client.callTool("fails", { note: SECRET_ARGUMENT });
    const states = received.flatMap((leg) => (leg.requestState === undefined ? [] : [leg.requestState]));
    expect(states.length).toBe(2);
    const recorded = everythingRecorded(otel.spans());
    expect(recorded).toContain("tools/call enter");
    expect(recorded).not.toContain(SECRET_ANSWER);
    expect(recorded).not.toContain(SECRET_ARGUMENT);
    for (const state of states) expect(recorded).not.toContain(state);
  });
});

describe("a client's spans on errors", () => {
  it("marks a tool result with isError as error.type tool_error, status ERROR, on the leg and the call", async () => {
    const { mcp } = twoQuestionServer();
    const client = await connect(mcp, "memory", { telemetry: otel.telemetry });
    otel.reset();
    await client.callTool("fails", { note: "x" });
    const spans = otel.spans().filter((span) => span.name === "tools/call fails");
    expect(spans.map((span) => [span.attributes["error.type"], span.status.code])).toEqual([
      ["tool_error", api.SpanStatusCode.ERROR],
      ["tool_error", api.SpanStatusCode.ERROR],
    ]);
  });

  it("records a JSON-RPC error's code as error.type and rpc.response.status_code, with its message", async () => {
    const { mcp } = twoQuestionServer();
    const client = await connect(mcp, "memory", { telemetry: otel.telemetry });
    otel.reset();
    const error = await client.readResource("nowhere://at-all").catch((e: unknown) => e as Error);
    const leg = otel.spans().find((span) => span.kind === api.SpanKind.CLIENT);
    expect(leg?.name).toBe("resources/read");
    expect(leg?.attributes).toMatchObject({
      "mcp.resource.uri": "nowhere://at-all",
      "error.type": String((error as { code?: number }).code),
      "rpc.response.status_code": String((error as { code?: number }).code),
    });
    expect(leg?.status).toEqual({ code: api.SpanStatusCode.ERROR, message: error.message });
    const call = otel.spans().find((span) => span.kind === api.SpanKind.INTERNAL);
    expect(call?.attributes["error.type"]).toBe(String((error as { code?: number }).code));
  });

  it("ends a subscription the caller closed without an error", async () => {
    const { mcp } = twoQuestionServer();
    const client = await connect(mcp, "memory", { telemetry: otel.telemetry });
    otel.reset();
    const subscription = client.listen({ toolsListChanged: true }, () => {});
    await subscription.acknowledged;
    subscription.close();
    await subscription.closed.catch(() => {});
    const span = otel
      .spans()
      .find((each) => each.name === "subscriptions/listen" && each.kind === api.SpanKind.CLIENT);
    expect(span?.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(span?.attributes["error.type"]).toBeUndefined();
    const points = histogramPoints((await otel.metrics()).get("mcp.client.operation.duration"));
    const listen = points.filter((point) => point.attributes["mcp.method.name"] === "subscriptions/listen");
    expect(listen.map((point) => point.attributes["error.type"])).toEqual([undefined]);
  });
});

describe("a client with telemetry off or without a provider", () => {
  it("records nothing and sends no trace context with telemetry: false", async () => {
    const { mcp, received } = twoQuestionServer();
    const { callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback, telemetry: false });
    await client.callTool("enter");
    await client.close();
    expect(otel.spans()).toEqual([]);
    expect(received.map((leg) => leg.meta.traceparent)).toEqual([undefined, undefined, undefined]);
  });

  it("records nothing and sends no trace context when no provider is registered", async () => {
    const { mcp, received } = twoQuestionServer();
    const { callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    await client.callTool("enter");
    expect(otel.spans()).toEqual([]);
    expect(received.map((leg) => leg.meta.traceparent)).toEqual([undefined, undefined, undefined]);
  });
});

describe("a client's metrics", () => {
  it("records operation durations in seconds, the rounds of a completed call, and the session's duration", async () => {
    const { mcp } = twoQuestionServer();
    const { callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const meter = collectingMeter();
    const client = await connect(mcp, "http", {
      elicitationCallback: callback,
      telemetry: { tracerProvider: otel.tracerProvider, meterProvider: meter.meterProvider },
    });
    await client.callTool("enter");
    await client.close();
    const metrics = await meter.metrics();

    const operations = metrics.get("mcp.client.operation.duration");
    expect(operations?.descriptor.unit).toBe("s");
    const calls = histogramPoints(operations).filter(
      (point) => point.attributes["mcp.method.name"] === "tools/call",
    );
    expect(calls.map((point) => [point.attributes["tsmcp.result_type"], point.value.count]).sort()).toEqual([
      ["complete", 1],
      ["input_required", 2],
    ]);
    expect(calls[0]?.attributes).toMatchObject({
      "gen_ai.tool.name": "enter",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
    });

    const rounds = histogramPoints(metrics.get("tsmcp.mrtr.rounds"));
    expect(rounds.map((point) => [point.attributes["gen_ai.tool.name"], point.value.sum])).toEqual([
      ["enter", 3],
    ]);
    expect(metrics.get("tsmcp.mrtr.rounds")?.descriptor.unit).toBe("{round}");

    const sessions = metrics.get("mcp.client.session.duration");
    expect(sessions?.descriptor.unit).toBe("s");
    expect(histogramPoints(sessions).map((point) => point.value.count)).toEqual([1]);
  });
});

/** The attribute keys a client metric point may carry: none whose values grow with the traffic. */
const LOW_CARDINALITY_KEYS = new Set([
  "mcp.method.name",
  "gen_ai.tool.name",
  "gen_ai.prompt.name",
  "gen_ai.operation.name",
  "error.type",
  "rpc.response.status_code",
  "mcp.protocol.version",
  "network.transport",
  "tsmcp.result_type",
  "server.address",
  "server.port",
]);

describe("a client's metric attributes", () => {
  it("carries only low-cardinality attributes on every point, never a resource URI, even for a read that asked", async () => {
    const { mcp } = twoQuestionServer();
    mcp.resource("vault://{item}", { mimeType: "text/plain" }, ({ item }, ctx) =>
      ctx.inputResponses?.folder === undefined
        ? inputRequired({
            inputRequests: {
              folder: elicitationRequest({
                message: "Which folder?",
                requestedSchema: { type: "object", properties: { folder: { type: "string" } } },
              }),
            },
          })
        : `${item} opened`,
    );
    const meter = collectingMeter();
    const client = await connect(mcp, "http", {
      elicitationCallback: async () => ({ action: "accept", content: { folder: "home" } }),
      telemetry: { tracerProvider: otel.tracerProvider, meterProvider: meter.meterProvider },
    });
    await client.readResource("vault://passport");
    await client.readResource("vault://will");
    await client.readResource("nowhere://at-all").catch(() => undefined);
    await client.callTool("fails", { note: "x" });
    await client.close();
    const metrics = await meter.metrics();

    const rounds = histogramPoints(metrics.get("tsmcp.mrtr.rounds"));
    expect(rounds.map((point) => [point.attributes, point.value.count, point.value.sum])).toContainEqual([
      { "mcp.method.name": "resources/read" },
      2,
      4,
    ]);
    const keys = new Set<string>();
    for (const metric of metrics.values()) {
      for (const point of histogramPoints(metric))
        for (const key of Object.keys(point.attributes)) keys.add(key);
    }
    expect(keys.has("mcp.method.name")).toBe(true);
    expect([...keys].filter((key) => !LOW_CARDINALITY_KEYS.has(key))).toEqual([]);
  });
});

describe("a 2025-era session's spans", () => {
  it("records the handshake, carries trace context on notifications, and hashes the session id", async () => {
    const { mcp } = twoQuestionServer(true);
    const sent: JSONRPCMessage[] = [];
    const client = await connect(mcp, "http", {
      protocolVersion: "legacy",
      telemetry: otel.telemetry,
      elicitationCallback: answering({ login: { user: "ada" }, confirm: { ok: true } }).callback,
      onMessage: (message, direction) => {
        if (direction === "sent") sent.push(message);
      },
    });
    const spans = otel.spans();
    const initialize = spans.find((span) => span.name === "initialize");
    expect(initialize?.attributes).toMatchObject({ "tsmcp.era": "handshake", "network.transport": "tcp" });
    const initialized = spans.find((span) => span.name === "notifications/initialized");
    const notification = sent.find(
      (message) => (message as { method?: string }).method === "notifications/initialized",
    ) as { params?: { _meta?: Record<string, unknown> } };
    expect(notification.params?._meta?.traceparent).toBe(
      `00-${initialized?.spanContext().traceId}-${initialized?.spanContext().spanId}-01`,
    );

    otel.reset();
    await client.listTools();
    const list = otel.spans().find((span) => span.name === "tools/list");
    expect(list?.attributes["tsmcp.era"]).toBe("handshake");
    expect(list?.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("hashes the session id as the first 32 hex digits of its SHA-256", async () => {
    const { mcp } = twoQuestionServer(true);
    const client = await connect(mcp, "http", { protocolVersion: "legacy", telemetry: otel.telemetry });
    otel.reset();
    await client.listTools();
    const sessionId = (client.session.transport as HttpClientTransport).sessionId as string;
    const list = otel.spans().find((span) => span.name === "tools/list");
    expect(list?.attributes["mcp.session.id"]).toBe(
      createHash("sha256").update(sessionId).digest("hex").slice(0, 32),
    );
    expect(everythingRecorded(otel.spans())).not.toContain(sessionId);
  });

  it("answers the server's elicitations in SERVER spans inside the call's trace", async () => {
    const { mcp } = twoQuestionServer(true);
    const client = await connect(mcp, "memory", {
      protocolVersion: "legacy",
      elicitationCallback: (params) => {
        const content: Record<string, string | boolean> =
          params.message === "Who are you?" ? { user: "ada" } : { ok: true };
        return { action: "accept", content };
      },
      telemetry: otel.telemetry,
    });
    otel.reset();
    await client.callTool("enter");
    const spans = otel.spans();
    const call = spans.find((span) => span.kind === api.SpanKind.INTERNAL);
    expect(call?.name).toBe("tools/call enter");
    const answered = spans.filter((span) => span.kind === api.SpanKind.SERVER);
    expect(answered.map((span) => span.name)).toEqual(["elicitation/create", "elicitation/create"]);
    expect(answered[0]?.attributes).toMatchObject({
      "mcp.method.name": "elicitation/create",
      "tsmcp.era": "handshake",
    });
    for (const span of answered) {
      expect(span.spanContext().traceId).toBe(call?.spanContext().traceId);
    }
  });
});
