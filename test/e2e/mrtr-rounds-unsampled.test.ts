/**
 * The rounds of a multi round-trip call, and its one trace, when the first leg's span records
 * nothing: a server with a meter provider only, a tracer whose sampler samples the first leg out,
 * and a fleet where a replica with telemetry off serves the middle leg. Real OpenTelemetry SDK,
 * real HTTP on 127.0.0.1, a client that propagates no trace context; every call takes three legs.
 */
import type * as otel from "@opentelemetry/api";
import type { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { elicit, MCPServer, RequestStateSecurity, resolver } from "../../packages/tsmcp/src/server/index.js";
import type { TelemetryOption } from "../../packages/tsmcp/src/telemetry/options.js";
import { HttpClientTransport } from "../../packages/tsmcp/src/transport/index.js";
import { histogramPoints, type OtelSetup, setUpOtel } from "../helpers/otel.js";
import { startReplicas, toolCallRouter } from "../helpers/replicas.js";

let setup: OtelSetup;
beforeAll(() => {
  setup = setUpOtel();
});
afterAll(() => setup.teardown());

const Args = z.object({ service: z.string() });
const environment = resolver("environment", ({ args }: { args: z.infer<typeof Args> }) =>
  elicit(`Where should ${args.service} go?`, z.object({ environment: z.string() })),
);
const approval = resolver("approval", { needs: { environment } }, ({ needs }) =>
  elicit(`Deploy to ${needs.environment.environment}?`, z.object({ approve: z.boolean() })),
);

function deployer(keys: Uint8Array[], telemetry: TelemetryOption): MCPServer {
  const mcp = new MCPServer("deployer", {
    requestStateSecurity: new RequestStateSecurity({ keys }),
    telemetry,
  });
  mcp.tool(
    "deploy",
    { inputSchema: Args, resolve: { environment, approval } },
    ({ service }, ctx) =>
      `${ctx.resolved.approval.approve ? "Deployed" : "Kept"} ${service} in ${ctx.resolved.environment.environment}`,
  );
  return mcp;
}

/**
 * Serves one replica per `telemetry` option (sharing keys) and makes `calls` three-leg calls with
 * a client that records nothing; leg n of each call goes to replica n modulo the replica count.
 */
async function deployCalls(telemetry: TelemetryOption[], calls: number): Promise<void> {
  const keys = [crypto.getRandomValues(new Uint8Array(32))];
  const replicas = await startReplicas(telemetry.length, (index) =>
    deployer(keys, telemetry[index] as TelemetryOption),
  );
  const router = toolCallRouter(replicas.urls, (leg) => leg % telemetry.length);
  const client = await Client.connect(new HttpClientTransport(replicas.url, { fetch: router.fetch }), {
    telemetry: false,
    elicitationCallback: (_params, { key }) => {
      const content: Record<string, string | boolean> =
        key === "environment" ? { environment: "staging" } : { approve: true };
      return { action: "accept", content };
    },
  });
  try {
    for (let call = 0; call < calls; call++) {
      router.restart();
      const result = await client.callTool("deploy", { service: "billing" });
      expect(result.content).toEqual([{ type: "text", text: "Deployed billing in staging" }]);
    }
  } finally {
    await client.close();
    await replicas.close();
    for (const server of replicas.servers) (server as MCPServer).close();
  }
}

/** Sum and count of the `tsmcp.mrtr.rounds` points the shared setup collected so far. */
async function rounds(): Promise<{ sum: number; count: number }> {
  const points = histogramPoints((await setup.metrics()).get("tsmcp.mrtr.rounds"));
  return {
    sum: points.reduce((total, point) => total + (point.value.sum ?? 0), 0),
    count: points.reduce((total, point) => total + point.value.count, 0),
  };
}

/** A sampler that samples a root span (the first leg) out and any leg that links a first leg in. */
class FirstLegOut implements Sampler {
  shouldSample(
    _context: otel.Context,
    _traceId: string,
    _name: string,
    _kind: otel.SpanKind,
    _attributes: otel.Attributes,
    links: otel.Link[],
  ): SamplingResult {
    return {
      decision: links.length === 0 ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
    };
  }
  toString(): string {
    return "FirstLegOut";
  }
}

/** `inner`, keeping the trace id it was asked to sample each `tools/call` span in. */
class Watching implements Sampler {
  readonly asked: string[] = [];
  constructor(private readonly inner: Sampler) {}
  shouldSample(...args: Parameters<Sampler["shouldSample"]>): SamplingResult {
    if (args[2].startsWith("tools/call")) this.asked.push(args[1]);
    return this.inner.shouldSample(...args);
  }
  toString(): string {
    return `Watching(${this.inner.toString()})`;
  }
}

function tracing(sampler: Sampler): { exporter: InMemorySpanExporter; provider: BasicTracerProvider } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

function toolCalls(exporter: InMemorySpanExporter): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.attributes["mcp.method.name"] === "tools/call");
}

describe("rounds and one trace when the first leg's span records nothing", () => {
  it("counts rounds 3 and 3 for two three-leg calls on a server with a meter provider only", async () => {
    const before = await rounds();
    await deployCalls([{ meterProvider: setup.meterProvider as MeterProvider }], 2);
    const after = await rounds();
    expect({ sum: after.sum - before.sum, count: after.count - before.count }).toEqual({ sum: 6, count: 2 });
  });

  it("counts rounds 3 and 3 under the AlwaysOff sampler", async () => {
    const { exporter, provider } = tracing(new AlwaysOffSampler());
    const before = await rounds();
    await deployCalls([{ tracerProvider: provider, meterProvider: setup.meterProvider }], 2);
    const after = await rounds();
    expect({ sum: after.sum - before.sum, count: after.count - before.count }).toEqual({ sum: 6, count: 2 });
    expect(exporter.getFinishedSpans()).toEqual([]);
    await provider.shutdown();
  });

  it("keeps a sampled-out first leg's trace id and the rounds on the later legs a sampler records", async () => {
    const sampler = new Watching(new FirstLegOut());
    const { exporter, provider } = tracing(sampler);
    await deployCalls([{ tracerProvider: provider }], 1);
    const legs = toolCalls(exporter);
    expect(legs.map((span) => span.attributes["tsmcp.mrtr.round"])).toEqual([2, 3]);
    const [firstTrace] = sampler.asked;
    expect(sampler.asked).toEqual([firstTrace, firstTrace, firstTrace]);
    expect(legs.map((span) => span.spanContext().traceId)).toEqual([firstTrace, firstTrace]);
    // The first leg's sampled-out context (flags 00) is their parent.
    expect(legs.map((span) => span.parentSpanContext?.traceFlags)).toEqual([0, 0]);
    await provider.shutdown();
  });

  it("keeps a parent-based sampler's decision for the first leg on every later leg: one trace, nothing sampled", async () => {
    const sampler = new Watching(new ParentBasedSampler({ root: new FirstLegOut() }));
    const { exporter, provider } = tracing(sampler);
    const before = await rounds();
    await deployCalls([{ tracerProvider: provider, meterProvider: setup.meterProvider }], 1);
    const after = await rounds();
    const [firstTrace] = sampler.asked;
    expect(sampler.asked).toEqual([firstTrace, firstTrace, firstTrace]);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect({ sum: after.sum - before.sum, count: after.count - before.count }).toEqual({ sum: 3, count: 1 });
    await provider.shutdown();
  });
});

describe("a fleet whose middle replica records nothing", () => {
  it("keeps one trace and rounds 1, 2, 3 across replicas recording, not recording, recording", async () => {
    const first = tracing(new AlwaysOnSampler());
    const third = tracing(new AlwaysOnSampler());
    const before = await rounds();
    await deployCalls(
      [
        { tracerProvider: first.provider, meterProvider: setup.meterProvider },
        false,
        { tracerProvider: third.provider, meterProvider: setup.meterProvider },
      ],
      1,
    );
    const after = await rounds();
    expect({ sum: after.sum - before.sum, count: after.count - before.count }).toEqual({ sum: 3, count: 1 });
    const [leg1] = toolCalls(first.exporter);
    const [leg3] = toolCalls(third.exporter);
    expect(leg1?.attributes["tsmcp.mrtr.round"]).toBe(1);
    expect(leg3?.attributes["tsmcp.mrtr.round"]).toBe(3);
    expect(leg3?.spanContext().traceId).toBe(leg1?.spanContext().traceId);
    expect(leg3?.parentSpanContext?.spanId).toBe(leg1?.spanContext().spanId);
    expect(leg3?.links.map((link) => link.context.spanId)).toContain(leg1?.spanContext().spanId);
    await first.provider.shutdown();
    await third.provider.shutdown();
  });
});
