/**
 * One multi round-trip call, seen with OpenTelemetry. A `deploy` tool asks two questions in two
 * rounds (which environment, then whether to go ahead there); a `Client` answers them with its
 * elicitation callback. Server and client run in this process over Streamable HTTP on 127.0.0.1,
 * record through the OpenTelemetry SDK registered globally, and the spans end in an in-memory
 * exporter. Printed: one JSON line per finished span
 * (`{"name","kind","traceId","spanId","parentSpanId","links","attributes"}`), then `spans: N`.
 * The client's call span, its CLIENT span per leg and the server's span per leg share one trace id.
 *
 * Run it: `npm run example -- telemetry`.
 */
import { randomBytes } from "node:crypto";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { elicit, MCPServer, RequestStateSecurity, resolver } from "tsmcp/server";
import * as z from "zod";

/** Registers the OpenTelemetry SDK globally, exporting finished spans to `exporter`; returns how to undo it. */
export function setUpTracing(exporter: InMemorySpanExporter): () => Promise<void> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  };
}

/** A server whose `deploy` tool asks for the environment, then for a go-ahead there. */
export function createDeployServer(): MCPServer {
  const environment = resolver("environment", () =>
    elicit("Deploy to which environment?", z.object({ environment: z.enum(["staging", "production"]) })),
  );
  const confirm = resolver("confirm", { needs: { environment } }, ({ needs }) =>
    elicit(`Deploy to ${needs.environment.environment} now?`, z.object({ go: z.boolean() })),
  );
  const mcp = new MCPServer("deployer", {
    version: "1.0.0",
    requestStateSecurity: new RequestStateSecurity({ keys: [randomBytes(32)] }),
  });
  mcp.tool(
    "deploy",
    {
      description: "Deploys the service; asks where, then whether to go ahead.",
      resolve: { environment, confirm },
    },
    (_args, { resolved }) =>
      resolved.confirm.go ? `Deployed to ${resolved.environment.environment}` : "Not deployed",
  );
  return mcp;
}

/** Calls `deploy` once over HTTP on 127.0.0.1, answering both questions; resolves the tool's text. */
export async function deployOnce(): Promise<string> {
  const mcp = createDeployServer();
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  try {
    const client = await Client.connect(handle.url, {
      elicitationCallback: (params) => {
        const content: Record<string, string | boolean> = params.message.startsWith("Deploy to which")
          ? { environment: "staging" }
          : { go: true };
        return { action: "accept", content };
      },
    });
    try {
      const result = await client.callTool("deploy");
      const first = result.content[0];
      return first?.type === "text" ? first.text : "";
    } finally {
      await client.close();
    }
  } finally {
    await handle.close();
  }
}

/** One finished span as the line this example prints. */
export interface SpanLine {
  name: string;
  kind: string;
  traceId: string;
  spanId: string;
  /** `null` for a span with no parent. */
  parentSpanId: string | null;
  links: { traceId: string; spanId: string }[];
  attributes: ReadableSpan["attributes"];
}

/** The printed form of `span`. */
export function spanLine(span: ReadableSpan): SpanLine {
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
    attributes: span.attributes,
  };
}

/** Runs the call with the SDK registered, and resolves the spans that finished, in order. */
export async function recordDeploy(): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const tearDown = setUpTracing(exporter);
  try {
    await deployOnce();
    return [...exporter.getFinishedSpans()];
  } finally {
    await tearDown();
  }
}

export async function main(): Promise<void> {
  const spans = await recordDeploy();
  for (const span of spans) console.log(JSON.stringify(spanLine(span)));
  console.log(`spans: ${spans.length}`);
}
