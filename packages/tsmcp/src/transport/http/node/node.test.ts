import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { Server } from "../../../server/server.js";
import {
  baseHeaders,
  createFixture,
  type Fixture,
  META,
  post,
  rawRequest,
  rpc,
  SseReader,
} from "../http-test-fixtures.js";
import { DEFAULT_HOST, DEFAULT_PATH, serve } from "./node.js";

/** The shared fixture around a real low-level `Server`. */
function newFixture(): Fixture {
  return createFixture((options) => new Server("http-fixture", options));
}

const discover = rpc(1, "server/discover");

describe("serve", () => {
  it("listens on 127.0.0.1, an ephemeral port and /mcp by default", async () => {
    expect(DEFAULT_HOST).toBe("127.0.0.1");
    expect(DEFAULT_PATH).toBe("/mcp");
    const handle = await serve(newFixture().dispatcher);
    try {
      expect(handle.url.hostname).toBe("127.0.0.1");
      expect(handle.url.pathname).toBe("/mcp");
      expect(handle.port).toBeGreaterThan(0);
      expect(handle.url.port).toBe(String(handle.port));
      const response = await post(handle.url, discover, baseHeaders("server/discover"));
      expect(response.status).toBe(200);
    } finally {
      await handle.close();
    }
  });

  it("answers other paths with a plain 404", async () => {
    const handle = await serve(newFixture().dispatcher, { path: "/rpc" });
    try {
      const response = await post(new URL("/mcp", handle.url), discover, baseHeaders("server/discover"));
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain");
      expect((await post(handle.url, discover, baseHeaders("server/discover"))).status).toBe(200);
    } finally {
      await handle.close();
    }
  });

  it("closes the connection after a 404 whose body it did not read, and keeps it when there was none", async () => {
    const handle = await serve(newFixture().dispatcher);
    try {
      const other = new URL("/other", handle.url);
      const unread = await rawRequest(other, {
        headers: { Host: "127.0.0.1", "Transfer-Encoding": "chunked" },
        chunks: ["x".repeat(64 * 1024)],
        endBody: false,
      });
      expect(unread.status).toBe(404);
      // Kept alive, node:http would read and discard whatever the client went on sending.
      expect(unread.headers.connection).toBe("close");
      const plain = await rawRequest(other, { method: "GET", headers: { Host: "127.0.0.1" } });
      expect(plain.status).toBe(404);
      expect(plain.headers.connection).toBe("keep-alive");
    } finally {
      await handle.close();
    }
  });

  it("refuses to bind beyond loopback without allowedHosts, saying how to fix it", () => {
    expect(() => serve(newFixture().dispatcher, { host: "0.0.0.0" })).toThrow(/allowedHosts/);
    expect(() => serve(newFixture().dispatcher, { host: "0.0.0.0" })).toThrow(TypeError);
  });

  it("binds beyond loopback with allowedHosts, accepting only those hosts", async () => {
    const logger = recordingLogger();
    const handle = await serve(newFixture().dispatcher, {
      host: "0.0.0.0",
      allowedHosts: ["mcp.example.com"],
      logger,
    });
    try {
      const url = new URL(`http://127.0.0.1:${handle.port}/mcp`);
      const send = (host: string) =>
        rawRequest(url, {
          headers: { ...baseHeaders("server/discover"), Host: host },
          chunks: [JSON.stringify(discover)],
        });
      expect((await send(`mcp.example.com:${handle.port}`)).status).toBe(200);
      expect((await send(`127.0.0.1:${handle.port}`)).status).toBe(403);
      expect(logger.records.map(({ message, fields }) => [message, fields])).toEqual([
        [
          "Streamable HTTP refused a request: Host not allowed (see allowedHosts)",
          { host: `127.0.0.1:${handle.port}` },
        ],
      ]);
    } finally {
      await handle.close();
    }
  });

  it("answers a malformed Host with a JSON-RPC 400, not an empty text/plain one", async () => {
    const fixture = newFixture();
    const handle = await serve(fixture.dispatcher);
    try {
      const body = JSON.stringify(discover);
      const head = Object.entries({ ...baseHeaders("server/discover"), Host: "localhost:99999" })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      const socket = connect(handle.port, "127.0.0.1");
      let raw = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        raw += chunk;
      });
      const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write(
        `POST /mcp HTTP/1.1\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      await ended;
      const [headText = "", payload = ""] = raw.split("\r\n\r\n");
      expect(headText).toMatch(/^HTTP\/1\.1 400 /);
      expect(headText.toLowerCase()).toContain("content-type: application/json");
      expect(JSON.parse(payload)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: malformed Host header or request target" },
      });
      expect(fixture.calls).toHaveLength(0);
    } finally {
      await handle.close();
    }
  });

  it("answers a request without Host with a JSON-RPC 400", async () => {
    const fixture = newFixture();
    const handle = await serve(fixture.dispatcher);
    try {
      const body = JSON.stringify(discover);
      const head = Object.entries(baseHeaders("server/discover"))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      const socket = connect(handle.port, "127.0.0.1");
      let raw = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        raw += chunk;
      });
      const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write(
        `POST /mcp HTTP/1.1\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      await ended;
      const [headText = "", payload = ""] = raw.split("\r\n\r\n");
      expect(headText).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(payload)).toMatchObject({ error: { code: -32600 } });
      expect(fixture.calls).toHaveLength(0);
    } finally {
      await handle.close();
    }
  });

  it("routes on the target's path exactly, ignoring the query", async () => {
    const handle = await serve(newFixture().dispatcher);
    try {
      const send = (target: string) =>
        post(new URL(target, handle.url), discover, baseHeaders("server/discover")).then((r) => r.status);
      expect(await send("/mcp?session=1")).toBe(200);
      expect(await send("/mcp/")).toBe(404);
      expect(await send("/MCP")).toBe(404);
    } finally {
      await handle.close();
    }
  });

  it("does not depend on @hono/node-server at run time", async () => {
    const { readFile, readdir } = await import("node:fs/promises");
    const root = new URL("../../../../", import.meta.url);
    const pkg = JSON.parse(await readFile(new URL("package.json", root), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain("@hono/node-server");
    const files = (await readdir(new URL("src/", root), { recursive: true })).filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.includes("test-fixtures"),
    );
    for (const file of files) {
      expect(await readFile(new URL(`src/${file}`, root), "utf8"), file).not.toContain("@hono/node-server");
    }
  });

  it("accepts the host it is bound to besides the loopback defaults", async () => {
    const handle = await serve(newFixture().dispatcher, { host: "localhost" });
    try {
      expect(handle.url.hostname).toBe("localhost");
      expect((await post(handle.url, discover, baseHeaders("server/discover"))).status).toBe(200);
    } finally {
      await handle.close();
    }
  });

  it.each([
    [{ port: -1 }, RangeError],
    [{ port: 70_000 }, RangeError],
    [{ path: "mcp" }, TypeError],
    [{ host: "" }, TypeError],
  ])("refuses the options %j before listening", (options, errorClass) => {
    expect(() => serve(newFixture().dispatcher, options)).toThrow(errorClass);
  });

  it("rejects when the port is taken", async () => {
    const first = await serve(newFixture().dispatcher);
    try {
      await expect(serve(newFixture().dispatcher, { port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it("writes a JSON answer with its Content-Type and exact Content-Length", async () => {
    const handle = await serve(newFixture().dispatcher);
    try {
      const response = await post(handle.url, discover, baseHeaders("server/discover"));
      const body = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
      expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", id: 1 });
    } finally {
      await handle.close();
    }
  });

  it("answers a body that is not UTF-8 with -32700 (400), read straight from the socket", async () => {
    const handle = await serve(newFixture().dispatcher);
    try {
      const response = await fetch(handle.url, {
        method: "POST",
        headers: baseHeaders("server/discover"),
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32700 } });
    } finally {
      await handle.close();
    }
  });

  it("treats a client that goes away mid-upload as gone, not as a failure to report", async () => {
    const reported: unknown[] = [];
    const handle = await serve(newFixture().dispatcher, {
      logger: { error: (_message, fields) => reported.push(fields?.error) },
    });
    try {
      const socket = connect(handle.port, "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      const head = Object.entries({ ...baseHeaders("server/discover"), Host: `127.0.0.1:${handle.port}` })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`POST /mcp HTTP/1.1\r\n${head}Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`);
      await new Promise<void>((resolve) => socket.once("close", resolve).resetAndDestroy());
      // The reset reaches the server before this later connection's request does.
      const response = await post(handle.url, discover, baseHeaders("server/discover"));
      expect(response.status).toBe(200);
      expect(reported).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it("gives a handler that first asks for its signal after the client left a signal already aborted", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let see!: (signal: { aborted: boolean; reason: unknown }) => void;
    const seen = new Promise<{ aborted: boolean; reason: unknown }>((resolve) => {
      see = resolve;
    });
    const server = new Server("late-signal", {
      onListTools: async (ctx) => {
        started();
        await released;
        see({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        return { tools: [] };
      },
    });
    const handle = await serve(server);
    try {
      const socket = connect(handle.port, "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      const body = JSON.stringify(rpc(1, "tools/list"));
      const head = Object.entries({ ...baseHeaders("tools/list"), Host: `127.0.0.1:${handle.port}` })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`POST /mcp HTTP/1.1\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await running;
      await new Promise<void>((resolve) => socket.once("close", resolve).resetAndDestroy());
      // The reset reaches the server before this later connection's request does.
      expect((await post(handle.url, discover, baseHeaders("server/discover"))).status).toBe(200);
      release();
      const signal = await seen;
      expect(signal.aborted).toBe(true);
      expect(String(signal.reason)).toMatch(/closed the connection/);
    } finally {
      await handle.close();
    }
  });

  it("with drainTimeoutMs 0 closes promptly with an SSE stream open, aborting its request, which answers last", async () => {
    const fixture = newFixture();
    const handle = await serve(fixture.dispatcher, { drainTimeoutMs: 0 });
    const request = rpc(2, "tools/call", { name: "wait", _meta: { ...META, progressToken: 1 } }, null);
    const response = await post(handle.url, request, { ...baseHeaders("tools/call"), "Mcp-Name": "wait" });
    const reader = new SseReader(response);
    await reader.nextMessage();
    await handle.close();
    expect(String(await fixture.waitAborted.promise)).toMatch(/shutting down/);
    const rest = await reader.rest();
    expect(JSON.parse(rest.at(-1)?.data ?? "{}")).toMatchObject({
      id: 2,
      result: { content: [{ text: "cancelled" }] },
    });
    await expect(handle.close()).resolves.toBeUndefined();
  });
});
