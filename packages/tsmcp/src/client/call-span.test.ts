/**
 * A call's tracing while nothing records: the loop's functions and outcome are handed back as
 * they are (no wrapper, no span), with telemetry off and with the API present but no provider.
 */
import * as api from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { telemetryFor } from "../telemetry/telemetry.js";
import { startCallSpan } from "./call-span.js";
import type { Fulfil, SendLeg } from "./input-required.js";

const send: SendLeg<unknown> = async () => ({ content: [] });
const fulfil: Fulfil = async () => ({ action: "decline" });

describe("a call's tracing", () => {
  it.each([
    ["telemetry: false", telemetryFor("client", "0.0.0", false)],
    ["no provider registered", telemetryFor("client", "0.0.0", true)],
  ])("wraps nothing with %s", (_case, telemetry) => {
    expect(api.trace.getTracerProvider()).toBeInstanceOf(api.ProxyTracerProvider);
    const tracing = startCallSpan(telemetry, "tools/call", "deploy");
    const driven = Promise.resolve("done");
    expect(tracing.legs(send)).toBe(send);
    expect(tracing.callbacks(fulfil)).toBe(fulfil);
    expect(tracing.ended(driven)).toBe(driven);
    expect(startCallSpan(telemetry, "prompts/get", "brief")).toBe(tracing);
  });

  it("counts the legs it sends and ends one span when a provider records", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = startCallSpan(
      telemetryFor("client", "0.0.0", { tracerProvider }),
      "tools/call",
      "deploy",
    );
    const leg = tracing.legs(send);
    await tracing.ended(leg(undefined, undefined).then(() => leg(undefined, "state")));
    expect(
      exporter.getFinishedSpans().map((span) => [span.name, span.attributes["tsmcp.mrtr.round"]]),
    ).toEqual([["tools/call deploy", 2]]);
  });
});
