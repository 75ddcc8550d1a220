/**
 * The OTLP variant of the telemetry example, against a collector stand-in on 127.0.0.1: a
 * `node:http` server that accepts OTLP/HTTP JSON export requests, as a collector's receiver does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "./telemetry-otlp.js";

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

interface OtlpExport {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

/** OTLP's span kinds (opentelemetry-proto trace.proto `Span.SpanKind`). */
const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

let collector: Server;
let url: string;
const received: OtlpExport[] = [];

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.headers["content-type"] === "application/json") {
        received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        response.writeHead(415).end();
      }
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
});

afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
});

describe("the telemetry example exporting over OTLP/HTTP", () => {
  it("sends the call's client and server spans, in one trace, to the collector", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await main([url]);
      expect(log.mock.calls.map((call) => call[0])).toEqual(["Deployed to staging", `spans sent to ${url}`]);
    } finally {
      log.mockRestore();
    }
    const spans = received.flatMap((body) =>
      body.resourceSpans.flatMap((resource) =>
        resource.scopeSpans.filter((scope) => scope.scope.name === "tsmcp").flatMap((scope) => scope.spans),
      ),
    );
    const deploy = spans.filter((span) => span.name === "tools/call deploy");
    const kinds = deploy.map((span) => span.kind).sort();
    expect(kinds).toEqual([
      KIND.INTERNAL,
      KIND.SERVER,
      KIND.SERVER,
      KIND.SERVER,
      KIND.CLIENT,
      KIND.CLIENT,
      KIND.CLIENT,
    ]);
    expect(new Set(deploy.map((span) => span.traceId)).size).toBe(1);
    const method = (span: OtlpSpan) =>
      span.attributes.find((attribute) => attribute.key === "mcp.method.name")?.value.stringValue;
    expect(deploy.filter((span) => span.kind === KIND.SERVER).map(method)).toEqual([
      "tools/call",
      "tools/call",
      "tools/call",
    ]);
  });

  it("says it could not send the spans, and exits 1, when no collector listens there", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1/traces`;
    await new Promise((resolve) => closed.close(resolve));
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await main([nowhere]);
      expect(log.mock.calls.map((call) => call[0])).toEqual(["Deployed to staging"]);
      expect(String(error.mock.calls[0]?.[0])).toContain(`could not send the spans to ${nowhere}`);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = undefined;
      log.mockRestore();
      error.mockRestore();
    }
  });
});
