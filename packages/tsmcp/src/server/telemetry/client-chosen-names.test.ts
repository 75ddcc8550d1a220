/**
 * Names a client chooses never become span names or metric series by themselves: a `tools/call`
 * or `prompts/get` refused as invalid params (an unknown tool or prompt, say) is named by its
 * method alone and its duration carries no tool or prompt name; a known tool keeps its name.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { rpc } from "../../../../../test/helpers/meta.js";
import { histogramPoints, setUpOtel } from "../../../../../test/helpers/otel.js";
import { silentLogger } from "../../protocol/logger.js";
import { MCPServer } from "../mcp/server.js";

const otelSetup = setUpOtel();
afterAll(() => otelSetup.teardown());
beforeEach(() => otelSetup.reset());

function server(): MCPServer {
  const mcp = new MCPServer("names", { logger: silentLogger, telemetry: otelSetup.telemetry });
  mcp.tool("known", { inputSchema: z.object({ n: z.number() }) }, ({ n }) => `n=${n}`);
  mcp.prompt("greeting", {}, () => "Hello");
  return mcp;
}

const env = () => ({ signal: new AbortController().signal });

/** The `gen_ai.tool.name` and `gen_ai.prompt.name` values of every duration point so far. */
async function namesInMetrics(): Promise<unknown[]> {
  const points = histogramPoints((await otelSetup.metrics()).get("mcp.server.operation.duration"));
  return points.flatMap((point) => [
    point.attributes["gen_ai.tool.name"],
    point.attributes["gen_ai.prompt.name"],
  ]);
}

describe("names a client chooses", () => {
  it("do not name the span or a metric series of a tools/call for an unknown tool", async () => {
    const mcp = server();
    const names = Array.from({ length: 5 }, (_, i) => `attacker-${i}-secretish`);
    for (const [i, name] of names.entries()) {
      const answer = await mcp.handle(rpc("tools/call", { name, arguments: {} }, i + 1), env());
      expect((answer as { error?: { code: number } }).error?.code).toBe(-32602);
    }
    const known = await mcp.handle(rpc("tools/call", { name: "known", arguments: { n: 1 } }, 9), env());
    expect((known as { result?: unknown }).result).toBeDefined();
    const spans = otelSetup.spans();
    expect(spans.map((span) => span.name)).toEqual([...names.map(() => "tools/call"), "tools/call known"]);
    // The wire message (the status description) may quote it; no attribute does.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain("attacker");
    const inMetrics = await namesInMetrics();
    expect(inMetrics.filter((name) => typeof name === "string" && name.startsWith("attacker"))).toEqual([]);
    expect(inMetrics).toContain("known");
  });

  it("do not name the span of a tools/call refused as invalid params for a known tool either", async () => {
    const mcp = server();
    const answer = await mcp.handle(rpc("tools/call", { name: "known", arguments: "one" }), env());
    expect((answer as { error?: { code: number } }).error?.code).toBe(-32602);
    const [span] = otelSetup.spans();
    expect(span?.name).toBe("tools/call");
    expect(span?.attributes["gen_ai.tool.name"]).toBeUndefined();
    expect(span?.attributes["rpc.response.status_code"]).toBe("-32602");
  });

  it("do not name the span or a metric series of a prompts/get for an unknown prompt", async () => {
    const mcp = server();
    const answer = await mcp.handle(rpc("prompts/get", { name: "attacker-prompt" }), env());
    expect((answer as { error?: { code: number } }).error?.code).toBe(-32602);
    const known = await mcp.handle(rpc("prompts/get", { name: "greeting" }, 2), env());
    expect((known as { result?: unknown }).result).toBeDefined();
    const spans = otelSetup.spans();
    expect(spans.map((span) => span.name)).toEqual(["prompts/get", "prompts/get greeting"]);
    // The wire message (the status description) may quote it; no attribute does.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain("attacker");
    const inMetrics = await namesInMetrics();
    expect(inMetrics).not.toContain("attacker-prompt");
    expect(inMetrics).toContain("greeting");
  });

  it("record a method or notification nobody defines as _OTHER, never as the name the client sent", async () => {
    const mcp = server();
    const answer = await mcp.handle(rpc("attacker/method-77", {}, 1), env());
    expect((answer as { error?: { code: number } }).error?.code).toBe(-32601);
    await mcp.handle({ jsonrpc: "2.0", method: "notifications/attacker-88" }, env());
    await mcp.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }, env());
    const spans = otelSetup.spans();
    expect(spans.map((span) => span.name)).toEqual(["_OTHER", "_OTHER", "notifications/cancelled"]);
    expect(spans.map((span) => span.attributes["mcp.method.name"])).toEqual([
      "_OTHER",
      "_OTHER",
      "notifications/cancelled",
    ]);
    const points = histogramPoints((await otelSetup.metrics()).get("mcp.server.operation.duration"));
    expect(JSON.stringify(points.map((point) => point.attributes))).not.toContain("attacker");
  });
});
