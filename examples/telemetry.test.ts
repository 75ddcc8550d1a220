/**
 * The telemetry example: one two-question call over Streamable HTTP on 127.0.0.1 with the
 * OpenTelemetry SDK registered, and `npm run example -- telemetry` in a child process printing one
 * JSON line per finished span, then the count.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { deployOnce, recordDeploy, type SpanLine, spanLine } from "./telemetry.js";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the telemetry example", () => {
  it("answers both questions and deploys", async () => {
    expect(await deployOnce()).toBe("Deployed to staging");
  });

  it("records one client call span with a CLIENT span per leg under it, in one trace", async () => {
    const lines = (await recordDeploy()).map(spanLine);
    const calls = lines.filter((line) => line.kind === "INTERNAL" && line.name === "tools/call deploy");
    expect(calls.length).toBe(1);
    const call = calls[0] as SpanLine;
    const legs = lines.filter((line) => line.kind === "CLIENT" && line.name === "tools/call deploy");
    expect(legs.map((leg) => leg.attributes["tsmcp.mrtr.round"])).toEqual([1, 2, 3]);
    expect(legs.map((leg) => leg.parentSpanId)).toEqual([call.spanId, call.spanId, call.spanId]);
    expect(new Set([call, ...legs].map((line) => line.traceId))).toEqual(new Set([call.traceId]));
    expect(legs.map((leg) => leg.attributes["tsmcp.mrtr.input_keys"])).toEqual([
      undefined,
      ["environment"],
      ["confirm"],
    ]);
  });

  it("records a SERVER span per leg, each the child of its leg's CLIENT span, in the call's trace", async () => {
    const lines = (await recordDeploy()).map(spanLine);
    const call = lines.find(
      (line) => line.kind === "INTERNAL" && line.name === "tools/call deploy",
    ) as SpanLine;
    const legs = lines.filter((line) => line.kind === "CLIENT" && line.name === "tools/call deploy");
    const served = lines.filter((line) => line.kind === "SERVER" && line.name === "tools/call deploy");
    expect(served.map((span) => span.attributes["mcp.method.name"])).toEqual([
      "tools/call",
      "tools/call",
      "tools/call",
    ]);
    expect(served.map((span) => span.traceId)).toEqual([call.traceId, call.traceId, call.traceId]);
    expect(served.map((span) => span.parentSpanId)).toEqual(legs.map((leg) => leg.spanId));
    expect(served.map((span) => span.attributes["tsmcp.mrtr.round"])).toEqual([1, 2, 3]);
    expect(served.map((span) => span.attributes["tsmcp.result_type"])).toEqual([
      "input_required",
      "input_required",
      "complete",
    ]);
    // The later legs link to the first leg's server span (the trace context its sealed state carried).
    const first = served[0] as SpanLine;
    expect(served.slice(1).map((span) => span.links)).toEqual([
      [{ traceId: call.traceId, spanId: first.spanId }],
      [{ traceId: call.traceId, spanId: first.spanId }],
    ]);
  });

  it("prints one JSON line per finished span, then the count, when run as npm run example -- telemetry", async () => {
    const child = spawn("npm", ["run", "-s", "example", "--", "telemetry"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const lines = out.trim().split("\n");
    const count = lines.pop();
    const spans = lines.map((line) => JSON.parse(line) as SpanLine);
    expect(count).toBe(`spans: ${spans.length}`);
    for (const span of spans) {
      expect(Object.keys(span)).toEqual([
        "name",
        "kind",
        "traceId",
        "spanId",
        "parentSpanId",
        "links",
        "attributes",
      ]);
    }
    expect(spans.filter((span) => span.kind === "INTERNAL").map((span) => span.name)).toEqual([
      "tools/call deploy",
    ]);
  });
});
