/**
 * A 2026-07-28 POST reads its `MCP-Protocol-Version` header once, and every rule that needs it
 * (the served revision, the era, the header-vs-body check) still applies to that one value.
 */
import { describe, expect, it } from "vitest";
import { rpc } from "../../../../../../test/helpers/meta.js";
import { Server } from "../../../server/server.js";
import type { HeaderReader } from "../../dispatcher.js";
import type { HttpExchange } from "../exchange.js";
import { MCP_HEADERS } from "../headers.js";
import { readBodyText } from "./body.js";
import { createExchangeHandler } from "./server-handler.js";

const URL_ = "http://127.0.0.1:3000/mcp";

/** A POST of `body` whose header reader counts the reads of each header name (lower-cased). */
function countedPost(headers: Record<string, string>, body: unknown) {
  const reads = new Map<string, number>();
  const request = new Request(URL_, { method: "POST", headers, body: JSON.stringify(body) });
  const reader: HeaderReader = {
    get(name) {
      const lower = name.toLowerCase();
      reads.set(lower, (reads.get(lower) ?? 0) + 1);
      return request.headers.get(name);
    },
    forEach(callback) {
      for (const [name, value] of request.headers) callback(value, name);
    },
  };
  const exchange: HttpExchange = {
    method: "POST",
    url: URL_,
    headers: reader,
    signal: new AbortController().signal,
    readBody: (maxBodyBytes) => readBodyText(request, maxBodyBytes),
  };
  return { exchange, reads };
}

function callHeaders(version: string): Record<string, string> {
  return {
    host: "127.0.0.1:3000",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    [MCP_HEADERS.protocolVersion]: version,
    [MCP_HEADERS.method]: "tools/call",
    [MCP_HEADERS.name]: "x",
  };
}

function handler() {
  const server = new Server("once", {
    onCallTool: () => ({ content: [{ type: "text", text: "ok" }] }),
  });
  return createExchangeHandler(server);
}

describe("the MCP-Protocol-Version header of a 2026-07-28 POST", () => {
  it("is read once for a tools/call that is answered", async () => {
    const { exchange, reads } = countedPost(callHeaders("2026-07-28"), rpc("tools/call", { name: "x" }));
    const answer = await handler()(exchange);
    expect(answer).toMatchObject({ kind: "json", status: 200 });
    expect(reads.get(MCP_HEADERS.protocolVersion.toLowerCase())).toBe(1);
  });

  it("still refuses a revision the endpoint does not serve with -32022, reading the header once", async () => {
    const { exchange, reads } = countedPost(callHeaders(" 2026-07-28x "), rpc("tools/call", { name: "x" }));
    const answer = await handler()(exchange);
    expect(answer).toMatchObject({ status: 400 });
    expect(JSON.parse((answer as { text: string }).text).error.code).toBe(-32022);
    expect(reads.get(MCP_HEADERS.protocolVersion.toLowerCase())).toBe(1);
  });
});
