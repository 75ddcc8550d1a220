/**
 * What the framework adapters add over the shared HTTP suites (which run through every entry): a
 * body a middleware already read, the request's work living as long as its response (not its
 * request stream), SSE events reaching the client as they are sent, and a web `Request` whose body
 * was already read.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "../../../protocol/schema/methods.js";
import { protectedResourceMetadata } from "../../../server/auth/metadata.js";
import { Server } from "../../../server/server.js";
import { baseHeaders, deferred, post, rawRequest, rpc, SseReader } from "../http-test-fixtures.js";
import { createHttpHandler } from "../server/server-handler.js";
import { ENTRIES, listenLocal as listen, type Served } from "./entries-test-fixtures.js";
import { mcpExpress } from "./express.js";
import { mcpFastify } from "./fastify.js";
import { createNodeListener } from "./node-listener.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A server whose `gated` tool sends a progress event, waits for the test to open the gate (long
 * after the request body was read and its stream closed), sends another, and answers whether its
 * signal was aborted by then.
 */
function gatedServer() {
  const gate = deferred<void>();
  const server = new Server("adapters", {
    logger: silent,
    onListTools: () => ({ tools: [] }),
    onCallTool: async (ctx, params): Promise<CallToolResult> => {
      if (params.name === "echo")
        return { content: [{ type: "text", text: String(params.arguments?.text) }] };
      ctx.sendProgress({ progress: 1, total: 2 });
      await gate.promise;
      ctx.sendProgress({ progress: 2, total: 2 });
      return { content: [{ type: "text", text: ctx.signal.aborted ? "aborted" : "not aborted" }] };
    },
  });
  return { server, gate };
}

const GATED = rpc(
  1,
  "tools/call",
  {
    name: "gated",
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      progressToken: "p",
    },
  },
  null,
);
const GATED_HEADERS = { ...baseHeaders("tools/call"), "Mcp-Name": "gated" };
const ECHO = rpc(2, "tools/call", { name: "echo", arguments: { text: "hi" } });
const ECHO_HEADERS = { ...baseHeaders("tools/call"), "Mcp-Name": "echo" };

/** Each Node adapter as a user would mount it, a body parser in front where the framework has one. */
const PARSED_ENTRIES: { name: string; start: (server: Server) => Promise<Served> }[] = [
  {
    name: "Express behind express.json()",
    start: (server) => {
      const app = express();
      const handler = mcpExpress(server);
      app.all("/mcp", express.json(), handler);
      return listen(createServer(app), () => handler.close());
    },
  },
  {
    name: "the node:http listener behind a hand-written JSON body reader",
    start: (server) => {
      const listener = createNodeListener(server);
      return listen(
        createServer(async (req: IncomingMessage & { body?: unknown }, res) => {
          const chunks: Buffer[] = [];
          for await (const chunk of req) chunks.push(chunk as Buffer);
          if (chunks.length > 0) req.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          listener(req, res);
        }),
        () => listener.close(),
      );
    },
  },
  {
    name: "Fastify, whose plugin leaves the body to the handler",
    start: async (server) => {
      const app = Fastify({ logger: false });
      await app.register(mcpFastify(server));
      await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as AddressInfo;
      return {
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        port,
        close: async () => {
          app.server.closeAllConnections();
          await app.close();
        },
      };
    },
  },
];

describe.each(PARSED_ENTRIES)("$name", ({ start }) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("serves a call whose body was already read", async () => {
    served = await start(gatedServer().server);
    const response = await post(served.url, ECHO, ECHO_HEADERS);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 2, result: { content: [{ text: "hi" }] } });
  });

  it("streams each progress event as it is sent, and keeps the work alive after the request stream closed", async () => {
    const { server, gate } = gatedServer();
    served = await start(server);
    const response = await post(served.url, GATED, GATED_HEADERS);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = new SseReader(response);
    // The first event arrives while the tool still waits: it was streamed, not buffered.
    expect(await reader.nextMessage()).toMatchObject({ params: { progress: 1 } });
    gate.resolve();
    expect(await reader.nextMessage()).toMatchObject({ params: { progress: 2 } });
    expect(await reader.nextMessage()).toMatchObject({
      id: 1,
      result: { content: [{ text: "not aborted" }] },
    });
  });

  it("still refuses a message nested deeper than maxJsonDepth, echoing its id", async () => {
    served = await start(gatedServer().server);
    let nested: unknown = "leaf";
    for (let i = 0; i < 100; i++) nested = [nested];
    const deep = rpc(3, "tools/call", { name: "echo", arguments: { text: nested } });
    const response = await post(served.url, deep, ECHO_HEADERS);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32600 } });
  });
});

describe("Express behind express.json()", () => {
  it("refuses a body declared larger than maxBodyBytes with 413, though the parser read it", async () => {
    const app = express();
    app.all("/mcp", express.json({ limit: "1mb" }), mcpExpress(gatedServer().server, { maxBodyBytes: 64 }));
    const served = await listen(createServer(app));
    try {
      const response = await post(served.url, ECHO, ECHO_HEADERS);
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    } finally {
      await served.close();
    }
  });

  it("serves a body express.text() read as a string, under the same limits", async () => {
    const app = express();
    app.all("/mcp", express.text({ type: "application/json" }), mcpExpress(gatedServer().server));
    const served = await listen(createServer(app));
    try {
      const response = await post(served.url, ECHO, ECHO_HEADERS);
      expect(response.status).toBe(200);
      const malformed = await post(served.url, '{"jsonrpc":', ECHO_HEADERS);
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    } finally {
      await served.close();
    }
  });

  it("answers 500 naming the cause when a middleware read the body and left nothing, instead of hanging", async () => {
    const errors: unknown[] = [];
    const app = express();
    app.all(
      "/mcp",
      (req, _res, next) => {
        req.resume();
        req.once("end", () => next());
      },
      mcpExpress(gatedServer().server, {
        logger: { error: (_message, fields) => errors.push(fields?.error) },
      }),
    );
    const served = await listen(createServer(app));
    try {
      const response = await rawRequest(served.url, {
        headers: ECHO_HEADERS,
        chunks: [JSON.stringify(ECHO)],
      });
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body).error).toMatchObject({ code: -32603 });
      expect(JSON.parse(response.body).error.message).toContain(
        "request body was read before the MCP handler",
      );
      expect(String(errors[0])).toContain("request body was read before the MCP handler");
    } finally {
      await served.close();
    }
  });
});

describe("mcpFastify", () => {
  it("leaves the app's body parsing of its other routes alone", async () => {
    const app = Fastify({ logger: false });
    await app.register(mcpFastify(gatedServer().server));
    app.post("/other", async (request) => ({ got: request.body }));
    const response = await app.inject({ method: "POST", url: "/other", payload: { a: 1 } });
    expect(response.json()).toEqual({ got: { a: 1 } });
    await app.close();
  });
});

describe("the web handler given a Request whose body was already read", () => {
  it("answers 500 with -32603 naming the cause, not a locked-stream failure", async () => {
    const errors: unknown[] = [];
    const handler = createHttpHandler(gatedServer().server, {
      logger: { error: (_message, fields) => errors.push(fields?.error) },
    });
    const request = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: ECHO_HEADERS,
      body: JSON.stringify(ECHO),
    });
    await request.json();
    const response = await handler(request);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain("request body was read before the MCP handler");
    expect(String(errors[0])).not.toContain("locked");
  });

  it("answers the same behind a Hono middleware that read the body", async () => {
    const handler = createHttpHandler(gatedServer().server, { logger: { error() {} } });
    const app = new Hono();
    app.use("/mcp", async (c, next) => {
      await c.req.json();
      await next();
    });
    app.all("/mcp", (c) => handler(c.req.raw));
    const served = await listen(
      createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false })),
    );
    try {
      const response = await post(served.url, ECHO, ECHO_HEADERS);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        "request body was read before the MCP handler",
      );
    } finally {
      await served.close();
    }
  });
});

describe.each(ENTRIES)("the protected resource metadata document through $name", ({ start }) => {
  it("is served at the path-suffixed well-known URL, before authentication", async () => {
    const served = await start(gatedServer().server, {
      protectedResourceMetadata: protectedResourceMetadata({
        resource: "http://127.0.0.1/mcp",
        authorizationServers: ["https://auth.example.com"],
      }),
      authenticate: () => new Response(null, { status: 401 }),
    });
    try {
      const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", served.url));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource: "http://127.0.0.1/mcp" });
    } finally {
      await served.close();
    }
  });
});
