import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { Server } from "../../../server/server.js";
import { baseHeaders, createFixture, META, post, rawRequest, rpc, SseReader } from "../http-test-fixtures.js";
import { ENTRIES, type Served } from "../node/entries-test-fixtures.js";
import { createNodeListener } from "../node/node-listener.js";
import {
  CORS_ALLOWED_METHODS,
  checkCors,
  DEFAULT_CORS_ALLOWED_HEADERS,
  DEFAULT_CORS_EXPOSED_HEADERS,
  DEFAULT_CORS_MAX_AGE_MS,
} from "./cors.js";
import { createHttpHandler } from "./server-handler.js";

const PAGE = "http://localhost:5173";

function preflight(url: URL, origin: string, requestHeaders = "content-type, mcp-method") {
  return fetch(url, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": requestHeaders,
    },
  });
}

describe("the cors option", () => {
  it("pins its defaults", () => {
    expect(CORS_ALLOWED_METHODS).toEqual(["POST", "GET", "DELETE", "OPTIONS"]);
    expect(DEFAULT_CORS_ALLOWED_HEADERS).toEqual([
      "Content-Type",
      "Authorization",
      "Mcp-Session-Id",
      "MCP-Protocol-Version",
      "Mcp-Method",
      "Mcp-Name",
      "Last-Event-ID",
    ]);
    expect(DEFAULT_CORS_EXPOSED_HEADERS).toEqual([
      "Mcp-Session-Id",
      "MCP-Protocol-Version",
      "WWW-Authenticate",
    ]);
    expect(DEFAULT_CORS_MAX_AGE_MS).toBe(7_200_000);
  });

  it("is off unless asked for", () => {
    expect(checkCors("t", undefined, undefined)).toBeUndefined();
    expect(checkCors("t", false, undefined)).toBeUndefined();
  });

  it.each([
    [{ cors: "yes" }, TypeError, /"cors" must be a boolean or an object/],
    [{ cors: { allowedHeaders: "X-A" } }, TypeError, /"cors.allowedHeaders" must be an array/],
    [{ cors: { allowedHeaders: ["X A"] } }, TypeError, /"cors.allowedHeaders" must hold header names/],
    [{ cors: { exposedHeaders: [1] } }, TypeError, /"cors.exposedHeaders" must hold header names/],
    [{ cors: { maxAgeMs: -1 } }, RangeError, /"cors.maxAgeMs"/],
    [{ cors: { maxAgeMs: 1.5 } }, RangeError, /"cors.maxAgeMs"/],
    [{ cors: { credentials: "true" } }, TypeError, /"cors.credentials" must be a boolean/],
    [{ cors: { credentials: true }, allowedOrigins: "*" }, TypeError, /"cors.credentials" cannot be true/],
    [
      { cors: { credentials: true } },
      TypeError,
      /cannot be true with the default allowedOrigins.*list the exact origins in allowedOrigins/,
    ],
    [{ cors: { credentials: true }, allowedHosts: "*" }, TypeError, /"cors.credentials" cannot be true/],
  ])("refuses %j when the handler is built", (options, type, message) => {
    const server = new Server("cors", {});
    expect(() => createHttpHandler(server, options as never)).toThrow(type);
    expect(() => createHttpHandler(server, options as never)).toThrow(message);
  });

  it("does not mutate the options it is given", () => {
    const cors = Object.freeze({ allowedHeaders: Object.freeze(["X-Trace"]), maxAgeMs: 60_000 });
    expect(() => createHttpHandler(new Server("cors", {}), { cors })).not.toThrow();
  });
});

describe.each(ENTRIES)("CORS through $name", ({ start }) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });
  const fixture = () => createFixture((options) => new Server("cors-fixture", options));

  it("answers a preflight 204 with the allowed origin, methods and headers, before authentication", async () => {
    served = await start(fixture().dispatcher, {
      cors: true,
      authenticate: () => new Response(null, { status: 401, headers: { "WWW-Authenticate": "Bearer" } }),
    });
    const response = await preflight(served.url, PAGE, "content-type, mcp-method, mcp-param-region");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    // The answer reflects the requested headers: a cache must key on them too.
    expect(response.headers.get("vary")).toBe(
      "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    );
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, GET, DELETE, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, mcp-param-region",
    );
    expect(response.headers.get("access-control-max-age")).toBe("7200");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("adds the configured headers, max age and credentials", async () => {
    served = await start(fixture().dispatcher, {
      allowedOrigins: [PAGE],
      cors: {
        allowedHeaders: ["X-Trace"],
        exposedHeaders: ["X-Request-Id"],
        maxAgeMs: 60_500,
        credentials: true,
      },
    });
    const response = await preflight(served.url, PAGE);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toMatch(/, Last-Event-ID, X-Trace$/);
    expect(response.headers.get("access-control-max-age")).toBe("60");
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    const answer = await post(served.url, rpc(1, "tools/list"), {
      ...baseHeaders("tools/list"),
      Origin: PAGE,
    });
    expect(answer.headers.get("access-control-allow-credentials")).toBe("true");
    expect(answer.headers.get("access-control-expose-headers")).toBe(
      "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, X-Request-Id",
    );
  });

  it("refuses a preflight from an origin allowedOrigins refuses, with 403 and no CORS headers", async () => {
    const logger = recordingLogger();
    served = await start(fixture().dispatcher, { cors: true, logger });
    const response = await preflight(served.url, "https://evil.example.com");
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const post403 = await post(served.url, rpc(1, "tools/list"), {
      ...baseHeaders("tools/list"),
      Origin: "https://evil.example.com",
    });
    expect(post403.status).toBe(403);
    expect(post403.headers.get("access-control-allow-origin")).toBeNull();
    const refusal = {
      level: "warn",
      message: "Streamable HTTP refused a request: Origin not allowed (see allowedOrigins)",
      fields: { origin: "https://evil.example.com" },
    };
    expect(logger.records).toEqual([refusal, refusal]);
  });

  it("lets a page read a JSON answer, an SSE answer, and an auth challenge", async () => {
    const { dispatcher } = fixture();
    served = await start(dispatcher, {
      cors: true,
      authenticate: (request) =>
        request.headers.get("authorization") === "Bearer ok"
          ? { token: "ok", clientId: "page", scopes: [] }
          : new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp"' } }),
    });
    const page = { Origin: PAGE, Authorization: "Bearer ok" };
    const json = await post(served.url, rpc(1, "tools/list"), { ...baseHeaders("tools/list"), ...page });
    expect(json.status).toBe(200);
    expect(json.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(json.headers.get("access-control-expose-headers")).toBe(
      "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate",
    );

    const progress = rpc(2, "tools/call", { name: "progress", _meta: { ...META, progressToken: "p" } }, null);
    const sse = await post(served.url, progress, {
      ...baseHeaders("tools/call"),
      "Mcp-Name": "progress",
      ...page,
    });
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    expect(sse.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(await new SseReader(sse).rest()).toHaveLength(3);

    const challenged = await post(served.url, rpc(3, "tools/list"), {
      ...baseHeaders("tools/list"),
      Origin: PAGE,
    });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(challenged.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    expect(challenged.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
  });

  it("exposes the session id of a handshake-era initialize", async () => {
    served = await start(fixture().dispatcher, { cors: true });
    const initialize = rpc(
      1,
      "initialize",
      { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
      null,
    );
    const response = await post(served.url, initialize, {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Origin: PAGE,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).not.toBeNull();
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
    await response.body?.cancel();
  });

  it("sends no CORS headers to a request without Origin", async () => {
    served = await start(fixture().dispatcher, { cors: true });
    const response = await post(served.url, rpc(1, "tools/list"), baseHeaders("tools/list"));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("leaves OPTIONS refused with 405 when off", async () => {
    served = await start(fixture().dispatcher);
    const response = await preflight(served.url, PAGE);
    expect(response.status).toBe(405);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("an answer written before the request body was read, on node:http", () => {
  it("closes the connection after a preflight, rather than leaving node to read the rest of the body", async () => {
    const listener = createNodeListener(new Server("cors", {}), { cors: true, maxBodyBytes: 1024 });
    const http = createServer(listener);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    try {
      const response = await rawRequest(url, {
        method: "OPTIONS",
        headers: { Host: "localhost", Origin: PAGE, "Transfer-Encoding": "chunked" },
        chunks: ["x".repeat(64 * 1024)],
        endBody: false,
      });
      expect(response.status).toBe(204);
      expect(response.headers.connection).toBe("close");
      // Without a body the connection is kept for the next request.
      const plain = await rawRequest(url, {
        method: "OPTIONS",
        headers: { Host: "localhost", Origin: PAGE },
      });
      expect(plain.status).toBe(204);
      expect(plain.headers.connection).toBe("keep-alive");
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });

  it.each([
    ["without a body", () => new Response(null, { status: 401, headers: { "WWW-Authenticate": "Bearer" } })],
    ["with a body", () => new Response("denied", { status: 401, headers: { "WWW-Authenticate": "Bearer" } })],
  ])("closes the connection after an authenticate refusal %s", async (_, refuse) => {
    const listener = createNodeListener(new Server("cors", {}), { authenticate: refuse });
    const http = createServer(listener);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    try {
      const response = await rawRequest(url, {
        headers: { ...baseHeaders("tools/list"), Host: "localhost", "Transfer-Encoding": "chunked" },
        chunks: ["x".repeat(64 * 1024)],
        endBody: false,
      });
      expect(response.status).toBe(401);
      expect(response.headers.connection).toBe("close");
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
