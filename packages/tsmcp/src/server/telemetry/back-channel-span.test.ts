/**
 * The server's CLIENT span for each request it sends a client over a 2025-era session's
 * back-channel (here `elicitation/create`), with the real OpenTelemetry SDK over Streamable HTTP on
 * 127.0.0.1: a child of the server's request span, its trace context in the request's `_meta`, so
 * the client's SERVER span answering it continues the server's trace; nothing sent with telemetry off.
 */
import * as api from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, describe, expect, it, onTestFinished } from "vitest";
import { setUpOtel } from "../../../../../test/helpers/otel.js";
import { Client } from "../../client/client.js";
import type { JSONRPCMessage, JSONRPCRequest } from "../../protocol/jsonrpc.js";
import type { TelemetryOption } from "../../telemetry/options.js";
import { serve } from "../../transport/http/node/node.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { Server } from "../server.js";

/** The server's providers; the client gets its own (a separate process, as it were). */
const serverOtel = setUpOtel();
const clientOtel = setUpOtel();
afterEach(() => {
  serverOtel.reset();
  clientOtel.reset();
});
afterAll(async () => {
  await serverOtel.teardown();
  await clientOtel.teardown();
});

const REGION = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } } },
});

/**
 * A server whose `ask` tool asks the client which region over the back-channel: with
 * `ctx.elicit`, or (`fulfil`) with an `InputRequiredResult` the server fulfils over the session.
 */
function askingServer(telemetry: TelemetryOption, fulfil = false) {
  return new Server("asking", {
    telemetry,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    ...(fulfil ? { legacyInputRequired: "fulfil" as const } : {}),
    onListTools: () => ({ tools: [] }),
    onCallTool: async (ctx, params) => {
      if (fulfil) {
        if (params.inputResponses?.region !== undefined) return { content: [{ type: "text", text: "done" }] };
        return inputRequired({ inputRequests: { region: REGION } });
      }
      const answer = await ctx.elicit({
        message: "Which region?",
        requestedSchema: { type: "object", properties: { region: { type: "string" } } },
      });
      return { content: [{ type: "text", text: answer.action }] };
    },
  });
}

/** Calls `ask` on a 2025-era session over HTTP; returns the elicitation requests the client received. */
async function callAsk(telemetry: TelemetryOption, fulfil = false): Promise<JSONRPCRequest[]> {
  const handle = await serve(askingServer(telemetry, fulfil), { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  const received: JSONRPCRequest[] = [];
  const client = await Client.connect(handle.url, {
    protocolVersion: "legacy",
    telemetry: clientOtel.telemetry,
    elicitationCallback: () => ({ action: "accept", content: { region: "eu" } }),
    onMessage: (message: JSONRPCMessage, direction) => {
      if (direction === "received" && "method" in message && message.method === "elicitation/create") {
        received.push(message as JSONRPCRequest);
      }
    },
  });
  onTestFinished(() => client.close());
  serverOtel.reset();
  clientOtel.reset();
  await client.callTool("ask");
  return received;
}

const named = (spans: readonly ReadableSpan[], name: string, kind: api.SpanKind) =>
  spans.find((span) => span.name === name && span.kind === kind);

describe("a 2025-era server's back-channel requests", () => {
  it("record a CLIENT span under the request's server span, which the client's answering span continues", async () => {
    const received = await callAsk(serverOtel.telemetry);
    const serverSpans = serverOtel.spans();
    const call = named(serverSpans, "tools/call ask", api.SpanKind.SERVER);
    const asked = named(serverSpans, "elicitation/create", api.SpanKind.CLIENT);
    const answered = named(clientOtel.spans(), "elicitation/create", api.SpanKind.SERVER);
    expect(call).toBeDefined();
    expect(asked?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(asked?.spanContext().traceId).toBe(call?.spanContext().traceId);
    expect(answered?.parentSpanContext?.spanId).toBe(asked?.spanContext().spanId);
    expect(answered?.spanContext().traceId).toBe(call?.spanContext().traceId);
    expect(asked?.attributes).toMatchObject({
      "mcp.method.name": "elicitation/create",
      "jsonrpc.request.id": String(received[0]?.id),
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
    });
    expect(asked?.attributes["mcp.session.id"]).toBe(call?.attributes["mcp.session.id"]);
    expect(asked?.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(asked?.status.code).toBe(api.SpanStatusCode.UNSET);
  });

  it("carry the CLIENT span's trace context in the request's _meta", async () => {
    const received = await callAsk(serverOtel.telemetry);
    const asked = named(serverOtel.spans(), "elicitation/create", api.SpanKind.CLIENT);
    const meta = received[0]?.params?._meta as Record<string, unknown> | undefined;
    expect(meta?.traceparent).toBe(`00-${asked?.spanContext().traceId}-${asked?.spanContext().spanId}-01`);
  });

  it("record the requests legacyInputRequired fulfil sends under the request's server span", async () => {
    const received = await callAsk(serverOtel.telemetry, true);
    const call = named(serverOtel.spans(), "tools/call ask", api.SpanKind.SERVER);
    const asked = named(serverOtel.spans(), "elicitation/create", api.SpanKind.CLIENT);
    const answered = named(clientOtel.spans(), "elicitation/create", api.SpanKind.SERVER);
    expect(asked?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(answered?.parentSpanContext?.spanId).toBe(asked?.spanContext().spanId);
    expect(asked?.attributes["jsonrpc.request.id"]).toBe(String(received[0]?.id));
  });

  it("carry no trace context and record nothing with telemetry: false", async () => {
    const received = await callAsk(false);
    expect(received).toHaveLength(1);
    expect(received[0]?.params?._meta).toBeUndefined();
    expect(serverOtel.spans()).toEqual([]);
  });
});
