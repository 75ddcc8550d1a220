/**
 * What the server's request spans reach and what they never record, with the real SDK: the
 * contents of `inputRequests` (an elicitation's message and requested schema) never reach a span
 * attribute, event, link or metric attribute; a handler behind middleware that derives the request
 * context (`next(request.with(key, value))`) still runs inside the request's span, and the
 * requestState boundary behind it still finds the request's trace.
 */
import * as otel from "@opentelemetry/api";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { rpc } from "../../../../../test/helpers/meta.js";
import { everythingRecorded, histogramPoints, setUpOtel } from "../../../../../test/helpers/otel.js";
import { silentLogger } from "../../protocol/logger.js";
import type { ElicitResult } from "../../protocol/schema/input.js";
import { contextKey } from "../context-key.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { Server, type ServerOptions } from "../server.js";
import { requestStateBoundary } from "../state/boundary.js";
import { RequestStateSecurity } from "../state/policy.js";

const otelSetup = setUpOtel();
afterAll(() => otelSetup.teardown());
beforeEach(() => otelSetup.reset());

const SECRET = "sk-live-4f1d9c2b7e";
const KEY = new Uint8Array(32).fill(7);

const env = () => ({ signal: new AbortController().signal });

function sealingServer(onCallTool: NonNullable<ServerOptions["onCallTool"]>): Server {
  return new Server("vault", { logger: silentLogger, telemetry: otelSetup.telemetry, onCallTool });
}

/** The result of a JSON-RPC answer that must be one. */
function resultOf<T>(answer: unknown): T {
  expect(answer).toHaveProperty("result");
  return (answer as { result: T }).result;
}

function boundary() {
  return requestStateBoundary(new RequestStateSecurity({ keys: [KEY], logger: silentLogger }), {
    defaultAudience: "vault",
  });
}

/** Every attribute of every metric data point recorded so far, as one string to search. */
async function metricAttributes(): Promise<string> {
  const all: unknown[] = [];
  for (const metric of (await otelSetup.metrics()).values()) {
    for (const point of histogramPoints(metric)) all.push(point.attributes);
  }
  return JSON.stringify(all);
}

describe("the contents of inputRequests", () => {
  it("never reach a server span attribute, event, link or metric attribute, over both legs", async () => {
    const ask = elicitationRequest({
      message: `Paste the key starting ${SECRET}`,
      requestedSchema: {
        type: "object",
        properties: { key: { type: "string", description: `like ${SECRET}`, default: SECRET } },
        required: ["key"],
      },
    });
    const server = sealingServer((_ctx, params) => {
      const answer = params.inputResponses?.[SECRET] as ElicitResult | undefined;
      if (answer?.action === "accept") return { content: [{ type: "text", text: "stored" }] };
      return inputRequired({ inputRequests: { credential: ask }, requestState: `wants ${SECRET}` });
    }).use(boundary());
    const first = await server.handle(rpc("tools/call", { name: "store", arguments: {} }), env());
    const result = resultOf<{ inputRequests: unknown; requestState: string }>(first);
    expect(JSON.stringify(result.inputRequests)).toContain(SECRET);
    const second = await server.handle(
      rpc(
        "tools/call",
        {
          name: "store",
          arguments: {},
          inputResponses: { credential: { action: "accept", content: { key: SECRET } } },
          requestState: result.requestState,
        },
        2,
      ),
      env(),
    );
    expect(second).toHaveProperty("result");
    const spans = otelSetup.spans();
    expect(spans).toHaveLength(2);
    expect(spans[0]?.attributes["tsmcp.mrtr.requested_keys"]).toEqual(["credential"]);
    expect(everythingRecorded(spans)).not.toContain("sk-live");
    expect(await metricAttributes()).not.toContain("sk-live");
  });
});

describe("a handler behind middleware that derives the request context", () => {
  it("runs inside the request's span and the boundary behind it still carries the first leg", async () => {
    const tenant = contextKey<string>("tenant");
    const handlerParents: (string | undefined)[] = [];
    const tracer = otelSetup.tracerProvider.getTracer("handler");
    const server = sealingServer((ctx, params) => {
      const span = tracer.startSpan("handler work");
      handlerParents.push(otel.trace.getActiveSpan()?.spanContext().spanId);
      span.end();
      expect(ctx.get(tenant)).toBe("acme");
      if (params.inputResponses?.region !== undefined) return { content: [{ type: "text", text: "done" }] };
      return inputRequired({
        inputRequests: {
          region: elicitationRequest({
            message: "Region?",
            requestedSchema: { type: "object", properties: {} },
          }),
        },
        requestState: "r1",
      });
    });
    server.use((request, next) => next(request.with(tenant, "acme"))).use(boundary());
    const first = await server.handle(rpc("tools/call", { name: "provision", arguments: {} }), env());
    const state = resultOf<{ requestState: string }>(first).requestState;
    await server.handle(
      rpc(
        "tools/call",
        {
          name: "provision",
          arguments: {},
          inputResponses: { region: { action: "accept", content: {} } },
          requestState: state,
        },
        2,
      ),
      env(),
    );
    const legs = otelSetup.spans().filter((span) => span.name === "tools/call provision");
    const work = otelSetup.spans().filter((span) => span.name === "handler work");
    expect(legs).toHaveLength(2);
    const [leg1, leg2] = legs;
    expect(handlerParents).toEqual([leg1?.spanContext().spanId, leg2?.spanContext().spanId]);
    expect(work.map((span) => span.parentSpanContext?.spanId)).toEqual(handlerParents);
    // The boundary found the trace behind the derived context: the second leg continues the first.
    expect(leg2?.spanContext().traceId).toBe(leg1?.spanContext().traceId);
    expect(leg2?.attributes["tsmcp.mrtr.round"]).toBe(2);
    expect(leg2?.links.map((link) => link.context.spanId)).toContain(leg1?.spanContext().spanId);
  });
});

describe("the keys of inputResponses a client sends", () => {
  it("are recorded as tsmcp.mrtr.input_keys capped at 64 keys of at most 64 characters each", async () => {
    const server = sealingServer(() => ({ content: [] }));
    const inputResponses: Record<string, unknown> = { ["k".repeat(200)]: { action: "decline" } };
    for (let i = 0; i < 99; i++) inputResponses[`key-${i}`] = { action: "decline" };
    await server.handle(rpc("tools/call", { name: "flood", arguments: {}, inputResponses }), env());
    const [span] = otelSetup.spans();
    const keys = span?.attributes["tsmcp.mrtr.input_keys"] as string[];
    expect(keys).toHaveLength(64);
    expect(keys[0]).toBe("k".repeat(64));
    expect(keys[1]).toBe("key-0");
    expect(Math.max(...keys.map((key) => key.length))).toBe(64);
  });
});
