import * as otel from "@opentelemetry/api";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { requestMeta, rpc } from "../../../../../test/helpers/meta.js";
import { setUpOtel, traceparent } from "../../../../../test/helpers/otel.js";
import type { ElicitResult } from "../../protocol/schema/input.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import type { Middleware } from "../middleware.js";
import type { Carried, CarriedTrace } from "../request-trace.js";
import { requestTraceOf } from "../request-trace.js";
import { Server } from "../server.js";

const otelSetup = setUpOtel();
afterAll(() => otelSetup.teardown());
beforeEach(() => otelSetup.reset());

const ASK = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

const FIRST_TRACE = "0af7651916cd43dd8448eb211c80319c";
const FIRST_SPAN = "b7ad6b7169203331";

/**
 * A stand-in for the requestState boundary: a request whose `requestState` is `carried:<json>`
 * continues that first leg; an `InputRequiredResult` leaves with what `toCarry()` says, sealed
 * here as plain JSON.
 */
function boundary(seen: { carried: (Carried | undefined)[] }): Middleware {
  return async (request, next) => {
    const state = request.params.requestState;
    if (typeof state === "string" && state.startsWith("carried:")) {
      requestTraceOf(request.context)?.continueFrom(JSON.parse(state.slice("carried:".length)));
    }
    const result = await next(request);
    if (result.resultType !== "input_required") return result;
    const carried = requestTraceOf(request.context)?.toCarry();
    seen.carried.push(carried);
    return { ...result, requestState: `carried:${JSON.stringify(carried)}` };
  };
}

function provisioner(seen: { carried: (Carried | undefined)[]; handlerSpans: string[] }) {
  const server = new Server("Provisioner", {
    telemetry: otelSetup.telemetry,
    onCallTool: (_ctx, params) => {
      seen.handlerSpans.push(otel.trace.getActiveSpan()?.spanContext().spanId ?? "none");
      const answer = params.inputResponses?.region as ElicitResult | undefined;
      if (answer?.action === "accept") return { content: [{ type: "text", text: "provisioned" }] };
      return inputRequired({ inputRequests: { region: ASK }, requestState: "unsealed" });
    },
  });
  return server.use(boundary(seen));
}

describe("the request trace the requestState boundary sees", () => {
  it("carries the first leg's span and round 1 out of a first leg, and runs the handler inside its span", async () => {
    const seen = { carried: [] as (Carried | undefined)[], handlerSpans: [] as string[] };
    const server = provisioner(seen);
    await server.handle(rpc("tools/call", { name: "provision", arguments: {} }), {
      signal: new AbortController().signal,
    });
    const [span] = otelSetup.spans();
    expect(span?.name).toBe("tools/call provision");
    expect(seen.carried).toEqual([
      {
        traceId: span?.spanContext().traceId,
        spanId: span?.spanContext().spanId,
        traceFlags: 1,
        round: 1,
      },
    ]);
    expect(seen.handlerSpans).toEqual([span?.spanContext().spanId]);
    expect(span?.attributes["tsmcp.mrtr.round"]).toBe(1);
    expect(span?.attributes["tsmcp.result_type"]).toBe("input_required");
  });

  it("makes a later leg that propagated nothing a child of the carried first leg, linked to it, one round on", async () => {
    const seen = { carried: [] as (Carried | undefined)[], handlerSpans: [] as string[] };
    const server = provisioner(seen);
    const carried: CarriedTrace = { traceId: FIRST_TRACE, spanId: FIRST_SPAN, traceFlags: 1, round: 1 };
    const retry = rpc("tools/call", {
      name: "provision",
      arguments: {},
      inputResponses: { region: { action: "decline" } },
      requestState: `carried:${JSON.stringify(carried)}`,
    });
    await server.handle(retry, { signal: new AbortController().signal });
    const [span] = otelSetup.spans();
    expect(span?.spanContext().traceId).toBe(FIRST_TRACE);
    expect(span?.parentSpanContext?.spanId).toBe(FIRST_SPAN);
    expect(span?.links.map((link) => link.context.spanId)).toEqual([FIRST_SPAN]);
    expect(span?.attributes["tsmcp.mrtr.round"]).toBe(2);
    expect(span?.attributes["tsmcp.mrtr.input_keys"]).toEqual(["region"]);
    // Still asking: the next state carries the first leg again, at round 2.
    expect(seen.carried).toEqual([{ ...carried, round: 2 }]);
  });

  it("keeps the client's own trace as parent on a later leg that propagated one, linking the first leg", async () => {
    const seen = { carried: [] as (Carried | undefined)[], handlerSpans: [] as string[] };
    const server = provisioner(seen);
    const carried: CarriedTrace = { traceId: FIRST_TRACE, spanId: FIRST_SPAN, traceFlags: 1, round: 2 };
    const clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const retry = rpc("tools/call", {
      _meta: {
        ...requestMeta(),
        traceparent: traceparent(clientTrace, "00f067aa0ba902b7"),
      },
      name: "provision",
      arguments: {},
      inputResponses: { region: { action: "accept", content: { region: "eu" } } },
      requestState: `carried:${JSON.stringify(carried)}`,
    });
    await server.handle(retry, { signal: new AbortController().signal });
    const [span] = otelSetup.spans();
    expect(span?.spanContext().traceId).toBe(clientTrace);
    expect(span?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(span?.links.map((link) => link.context.spanId)).toEqual([FIRST_SPAN]);
    expect(span?.attributes["tsmcp.mrtr.round"]).toBe(3);
    expect(span?.attributes["tsmcp.result_type"]).toBe("complete");
    expect(seen.carried).toEqual([]);
  });

  it("is absent when the server records nothing", async () => {
    const seen: (CarriedTrace | undefined | "none")[] = [];
    const server = new Server("quiet", {
      telemetry: false,
      onCallTool: () => ({ content: [] }),
    }).use(async (request, next) => {
      seen.push(requestTraceOf(request.context) === undefined ? "none" : undefined);
      return next(request);
    });
    await server.handle(rpc("tools/call", { name: "t" }), { signal: new AbortController().signal });
    expect(seen).toEqual(["none"]);
    expect(otelSetup.spans()).toEqual([]);
  });
});
