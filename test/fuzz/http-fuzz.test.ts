/**
 * Fuzz properties of the Streamable HTTP entry: malformed JSON-RPC bodies and malformed or
 * mismatched headers never produce a 5xx, never a body that is not a JSON-RPC answer (unless the
 * status is 202 or 204, which carry none, or the plain 404 of another path), and never an uncaught
 * exception or unhandled rejection — against a real `node:http` server on 127.0.0.1 (`serve`) and
 * against the web handler (`createHttpHandler` with a web `Request`).
 * Spec: basic/transports/streamable-http, basic/index §Error Codes.
 */
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import {
  createHttpHandler,
  type HttpHandler,
} from "../../packages/tsmcp/src/transport/http/server/server-handler.js";
import { type FuzzRequest, fuzzRequest } from "./arbitraries.js";
import { fuzzServer } from "./server.js";

/** Runs per property: enough to reach every branch of the generators, a few seconds in all. */
const RUNS = 300;

/** What came back for one request. */
interface Answer {
  readonly status: number;
  readonly contentType: string;
  /** The body, or for an event stream the `data` of each event read (up to the first response). */
  readonly payloads: readonly string[];
}

/**
 * True for a JSON-RPC response or error object: exactly one of result/error, the id a string or an
 * integer, and present on a result (an error omits it when the request's could not be read).
 */
function isJsonRpcAnswer(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const answer = value as Record<string, unknown>;
  if (answer.jsonrpc !== "2.0" || "result" in answer === "error" in answer) return false;
  if ("id" in answer && typeof answer.id !== "string" && !Number.isInteger(answer.id)) return false;
  if ("error" in answer) {
    const error = answer.error as { code?: unknown; message?: unknown } | null;
    return Number.isInteger(error?.code) && typeof error?.message === "string";
  }
  return "id" in answer && typeof answer.result === "object" && answer.result !== null;
}

/** True for a JSON-RPC notification or request (what an event stream may carry before its answer). */
function isJsonRpcMessage(value: unknown): boolean {
  if (isJsonRpcAnswer(value)) return true;
  const message = value as Record<string, unknown> | null;
  return typeof message === "object" && message?.jsonrpc === "2.0" && typeof message.method === "string";
}

/** The property every answer must have; throws with the answer when it does not. */
function expectWellFormed(request: FuzzRequest, answer: Answer): void {
  const context = JSON.stringify({ request, answer }, (_key, value) =>
    typeof value === "string" && value.length > 300
      ? `${value.slice(0, 300)}… (${value.length} chars)`
      : value,
  );
  expect(answer.status, context).toBeLessThan(500);
  if (answer.status === 202 || answer.status === 204) return;
  if (answer.contentType.startsWith("text/event-stream")) {
    const messages = answer.payloads.map((data) => JSON.parse(data) as unknown);
    expect(messages.every(isJsonRpcMessage), context).toBe(true);
    expect(messages.some(isJsonRpcAnswer), context).toBe(true);
    return;
  }
  expect(answer.contentType, context).toMatch(/^application\/json/);
  expect(answer.payloads, context).toHaveLength(1);
  expect(isJsonRpcAnswer(JSON.parse(answer.payloads[0] as string)), context).toBe(true);
}

/** Reads an event stream until its first JSON-RPC answer (a stream may stay open after it). */
async function readEvents(chunks: AsyncIterable<Uint8Array>, stop: () => void): Promise<string[]> {
  const decoder = new TextDecoder();
  const payloads: string[] = [];
  let buffered = "";
  for await (const chunk of chunks) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf("\n\n");
    while (end !== -1) {
      const data = buffered
        .slice(0, end)
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      buffered = buffered.slice(end + 2);
      if (data !== "") {
        payloads.push(data);
        if (isJsonRpcAnswer(JSON.parse(data))) {
          stop();
          return payloads;
        }
      }
      end = buffered.indexOf("\n\n");
    }
  }
  return payloads;
}

/** Sends a request to the Node server with `node:http` (which lets `Host` be anything). */
function sendToNode(url: URL, fuzz: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: fuzz.method,
        headers: fuzz.headers,
        setHost: !("host" in fuzz.headers),
        // A fresh connection each time: a pooled one the server closed when idle would reset.
        agent: false,
        signal: AbortSignal.timeout(10_000),
      },
      (incoming) => {
        const contentType = String(incoming.headers["content-type"] ?? "");
        const status = incoming.statusCode ?? 0;
        const read = contentType.startsWith("text/event-stream")
          ? readEvents(incoming, () => incoming.destroy())
          : (async () => {
              const parts: Buffer[] = [];
              for await (const part of incoming) parts.push(part as Buffer);
              return [Buffer.concat(parts).toString("utf8")];
            })();
        read.then((payloads) => resolve({ status, contentType, payloads }), reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(fuzz.body);
  });
}

/** Sends a request to the web handler as a web `Request`. */
async function sendToHandler(handler: HttpHandler, origin: string, fuzz: FuzzRequest): Promise<Answer> {
  const response = await handler(
    new Request(`${origin}/mcp`, { method: fuzz.method, headers: fuzz.headers, body: fuzz.body }),
  );
  const contentType = response.headers.get("content-type") ?? "";
  if (contentType.startsWith("text/event-stream") && response.body !== null) {
    const reader = response.body;
    const payloads = await readEvents(reader, () => undefined);
    await reader.cancel().catch(() => undefined);
    return { status: response.status, contentType, payloads };
  }
  return { status: response.status, contentType, payloads: [await response.text()] };
}

describe("malformed requests over Streamable HTTP", () => {
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  let mcp: MCPServer;
  let handle: HttpServerHandle;
  let handler: HttpHandler;

  beforeAll(async () => {
    process.on("uncaughtException", record);
    process.on("unhandledRejection", record);
    mcp = fuzzServer();
    handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    handler = createHttpHandler(mcp);
  });

  afterAll(async () => {
    handler.close();
    await handle.close();
    mcp.close();
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  });

  it("never answer a 5xx or a body that is not JSON-RPC from the node:http server", async () => {
    await fc.assert(
      fc.asyncProperty(fuzzRequest(handle.url.host), async (fuzz) => {
        expectWellFormed(fuzz, await sendToNode(handle.url, fuzz));
      }),
      { numRuns: RUNS },
    );
    expect(uncaught).toEqual([]);
  });

  it("never answer a 5xx or a body that is not JSON-RPC from the web handler", async () => {
    const origin = "http://127.0.0.1:3000";
    await fc.assert(
      fc.asyncProperty(fuzzRequest("127.0.0.1:3000"), async (fuzz) => {
        expectWellFormed(fuzz, await sendToHandler(handler, origin, fuzz));
      }),
      { numRuns: RUNS },
    );
    expect(uncaught).toEqual([]);
  });

  it("answer the plain 404 of another path without a JSON-RPC body", async () => {
    const answer = await sendToNode(new URL("/elsewhere", handle.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(404);
  });
});
