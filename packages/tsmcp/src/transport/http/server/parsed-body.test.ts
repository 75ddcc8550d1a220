/**
 * The limits of a body a framework's parser already read (`req.body`): its size measured on the
 * value (no reliable `Content-Length` when the upload was chunked or compressed), its nesting, and
 * a walk that stays bounded on a value whose sub-objects are shared.
 */
import { createServer, type IncomingMessage, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import express from "express";
import { describe, expect, it } from "vitest";
import { Server } from "../../../server/server.js";
import { baseHeaders, post, rawRequest, rpc } from "../http-test-fixtures.js";
import { mcpExpress } from "../node/express.js";
import { createNodeListener } from "../node/node-listener.js";
import { checkParsedBody } from "./parsed-body.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const server = () =>
  new Server("parsed-body", {
    logger: silent,
    onListTools: () => ({ tools: [] }),
    onCallTool: async (_ctx, params) => ({
      content: [{ type: "text", text: String(String(params.arguments?.text).length) }],
    }),
  });
const HEADERS = { ...baseHeaders("tools/call"), "Mcp-Name": "echo" };
const echo = (text: unknown) => rpc(1, "tools/call", { name: "echo", arguments: { text } });

/** Counts the property reads of the objects `wrap` made. */
function readCounter() {
  const counter = {
    reads: 0,
    wrap<T extends object>(target: T): T {
      return new Proxy(target, {
        get(object, key, receiver) {
          counter.reads++;
          return Reflect.get(object, key, receiver);
        },
      });
    },
  };
  return counter;
}

/** `depth` objects, each holding the next twice: 2^depth paths from `depth` objects. */
function sharedTree(depth: number, wrap: <T extends object>(node: T) => T = (node) => node): unknown {
  let node: unknown = "leaf";
  for (let i = 0; i < depth; i++) node = wrap({ a: node, b: node });
  return node;
}

async function listen(listener: RequestListener) {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

describe("checkParsedBody", () => {
  it("measures a value as the length of its JSON text", () => {
    const value = {
      ...echo({ list: [1, -2.5, 1e21, true, false, null, [], {}], nested: { "k\u00e9y": "v" } }),
      jsonrpc: "2.0",
    };
    const length = JSON.stringify(value).length;
    expect(checkParsedBody(value, length, 64)).toMatchObject({ kind: "request" });
    expect(checkParsedBody(value, length - 1, 64)).toEqual({ kind: "too-large" });
  });

  it("refuses a value nested deeper than maxDepth with -32600, echoing its id", () => {
    let nested: unknown = "leaf";
    for (let i = 0; i < 10; i++) nested = [nested];
    const checked = checkParsedBody(echo(nested), 1 << 20, 8);
    expect(checked).toMatchObject({ kind: "invalid", id: 1 });
    expect(checked.kind === "invalid" && checked.error.code).toBe(-32600);
  });

  it("stops within about maxBodyBytes steps on shared sub-objects and on a cycle", () => {
    const maxBodyBytes = 100_000;
    // 2^40 paths: a walk of every one would take days.
    const tree = readCounter();
    expect(checkParsedBody(echo(sharedTree(40, tree.wrap)), maxBodyBytes, 64)).toEqual({ kind: "too-large" });
    expect(tree.reads).toBeGreaterThan(0);
    expect(tree.reads).toBeLessThanOrEqual(maxBodyBytes);
    const loop = readCounter();
    const cycle: Record<string, unknown> = {};
    const wrapped = loop.wrap(cycle);
    cycle.self = wrapped;
    expect(checkParsedBody(echo(wrapped), maxBodyBytes, 1_000_000)).toEqual({ kind: "too-large" });
    expect(loop.reads).toBeGreaterThan(0);
    expect(loop.reads).toBeLessThanOrEqual(maxBodyBytes);
  });
});

describe("maxBodyBytes on a body express.json() read", () => {
  it("refuses with 413 a chunked upload (no Content-Length) whose value is over the limit", async () => {
    const app = express();
    app.all("/mcp", express.json({ limit: "50mb" }), mcpExpress(server(), { maxBodyBytes: 1024 }));
    const served = await listen(app);
    try {
      const body = JSON.stringify(echo("x".repeat(200_000)));
      const response = await rawRequest(served.url, {
        headers: { ...HEADERS, Host: "127.0.0.1" },
        chunks: [body.slice(0, 10), body.slice(10)],
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32600 } });
      const small = await post(served.url, echo("hi"), HEADERS);
      expect(small.status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it("refuses with 413 a gzip body the parser inflated past the limit (Content-Length is the compressed size)", async () => {
    const app = express();
    app.all("/mcp", express.json({ limit: "50mb" }), mcpExpress(server(), { maxBodyBytes: 65_536 }));
    const served = await listen(app);
    try {
      const gz = gzipSync(JSON.stringify(echo("x".repeat(5_000_000))));
      const response = await fetch(served.url, {
        method: "POST",
        headers: { ...HEADERS, "Content-Encoding": "gzip", "Content-Length": String(gz.length) },
        body: gz,
      });
      expect(response.status).toBe(413);
    } finally {
      await served.close();
    }
  });
});

describe("a req.body whose sub-objects are shared (a custom parser's DAG)", () => {
  it("is refused with 413 without walking every path, the event loop left free", async () => {
    const listener = createNodeListener(server());
    const served = await listen(async (req: IncomingMessage & { body?: unknown }, res) => {
      for await (const _ of req) {
        // the stand-in parser reads the stream and leaves its own value
      }
      req.body = echo(sharedTree(40));
      listener(req, res);
    });
    try {
      // Walking each of the 2^40 paths would block the event loop for days (past the test's timeout).
      const response = await rawRequest(served.url, {
        headers: { ...HEADERS, Host: "127.0.0.1" },
        chunks: ["{}"],
      });
      expect(response.status).toBe(413);
    } finally {
      await served.close();
    }
  });
});
