/**
 * One trace per multi round-trip call on the server, across replicas, for a client that propagates
 * no trace context: two `MCPServer` replicas sharing their requestState keys serve one resolver tool
 * that asks two questions in two rounds; the client's three legs alternate between the replicas.
 * Every server span of the call shares the first leg's trace id, the later legs link to the first
 * leg's span, and each span names its round.
 */
import { type Link, SpanKind } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { elicit, MCPServer, RequestStateSecurity, resolver } from "../../packages/tsmcp/src/server/index.js";
import { HttpClientTransport } from "../../packages/tsmcp/src/transport/index.js";
import { type OtelSetup, setUpOtel } from "../helpers/otel.js";
import { startReplicas, toolCallRouter } from "../helpers/replicas.js";

// The first replica records into the shared setup (which also registers the context manager and
// the W3C propagators); the second into a tracer provider and exporter of its own.
let otel: OtelSetup;
const secondExporter = new InMemorySpanExporter();
const secondProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(secondExporter)] });
beforeAll(() => {
  otel = setUpOtel();
});
afterAll(async () => {
  await secondProvider.shutdown();
  await otel.teardown();
});

const Args = z.object({ service: z.string() });
const environment = resolver("environment", ({ args }: { args: z.infer<typeof Args> }) =>
  elicit(`Where should ${args.service} go?`, z.object({ environment: z.string() })),
);
const approval = resolver("approval", { needs: { environment } }, ({ needs }) =>
  elicit(`Deploy to ${needs.environment.environment}?`, z.object({ approve: z.boolean() })),
);

/** One replica: the deploy tool, sealing with `keys`, recording spans through `tracerProvider`. */
function replica(keys: Uint8Array[], tracerProvider: BasicTracerProvider): MCPServer {
  const mcp = new MCPServer("deployer", {
    requestStateSecurity: new RequestStateSecurity({ keys }),
    telemetry: { tracerProvider },
  });
  mcp.tool(
    "deploy",
    { inputSchema: Args, resolve: { environment, approval } },
    ({ service }, ctx) =>
      `${ctx.resolved.approval.approve ? "Deployed" : "Kept"} ${service} in ${ctx.resolved.environment.environment}`,
  );
  return mcp;
}

describe("a multi round-trip call whose legs alternate between two replicas sharing keys", () => {
  it("gives every server span of the call one trace id, links later legs to the first, and counts rounds 1, 2, 3", async () => {
    const keys = [crypto.getRandomValues(new Uint8Array(32))];
    const exporters = [otel.exporter, secondExporter];
    const replicas = await startReplicas(2, (index) =>
      replica(keys, index === 0 ? otel.tracerProvider : secondProvider),
    );
    // Each tools/call goes to the other replica than the one before; everything else to the first.
    const router = toolCallRouter(replicas.urls, (leg) => leg % 2);
    const client = await Client.connect(new HttpClientTransport(replicas.url, { fetch: router.fetch }), {
      telemetry: false,
      elicitationCallback: (_params, { key }) => {
        const content: Record<string, string | boolean> =
          key === "environment" ? { environment: "staging" } : { approve: true };
        return { action: "accept", content };
      },
    });
    try {
      const result = await client.callTool("deploy", { service: "billing" });
      expect(result.content).toEqual([{ type: "text", text: "Deployed billing in staging" }]);
    } finally {
      await client.close();
      await replicas.close();
      for (const server of replicas.servers) (server as MCPServer).close();
    }
    expect(router.legs).toEqual([0, 1, 0]);

    const legs = (replica: number): ReadableSpan[] =>
      (exporters[replica] as InMemorySpanExporter)
        .getFinishedSpans()
        .filter((span) => span.attributes["mcp.method.name"] === "tools/call");
    const [first, third] = legs(0).sort(
      (a, b) => Number(a.attributes["tsmcp.mrtr.round"]) - Number(b.attributes["tsmcp.mrtr.round"]),
    );
    const [second] = legs(1);
    expect([legs(0).length, legs(1).length]).toEqual([2, 1]);
    const spans = [first, second, third] as ReadableSpan[];
    for (const span of spans) {
      expect(span.name).toBe("tools/call deploy");
      expect(span.kind).toBe(SpanKind.SERVER);
    }
    const firstContext = (first as ReadableSpan).spanContext();
    expect(spans.map((span) => span.spanContext().traceId)).toEqual([
      firstContext.traceId,
      firstContext.traceId,
      firstContext.traceId,
    ]);
    expect(new Set(spans.map((span) => span.spanContext().spanId)).size).toBe(3);
    expect(spans.map((span) => span.attributes["tsmcp.mrtr.round"])).toEqual([1, 2, 3]);
    expect(spans.map((span) => span.attributes["tsmcp.result_type"])).toEqual([
      "input_required",
      "input_required",
      "complete",
    ]);
    const linked = (span: ReadableSpan | undefined) =>
      (span?.links ?? []).map((link: Link) => ({
        traceId: link.context.traceId,
        spanId: link.context.spanId,
      }));
    const toFirst = { traceId: firstContext.traceId, spanId: firstContext.spanId };
    expect(linked(second)).toContainEqual(toFirst);
    expect(linked(third)).toContainEqual(toFirst);
  });
});
