/**
 * `Server.extension`: registration checks (TypeError at registration), advertising, and the
 * dispatch of an extension's methods on the 2026-07-28 wire (params -32602, -32021 for a
 * `requiresClientDeclaration` method the request did not declare, -32601 for a method of an
 * extension that is not registered, results shaped). Both eras over real transports:
 * client/extensions.test.ts. Spec: https://modelcontextprotocol.io/extensions/overview.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { requestMeta, rpc } from "../../../../test/helpers/meta.js";
import { defineExtension } from "../protocol/extension.js";
import type { JSONRPCNotification, JSONRPCResponse } from "../protocol/jsonrpc.js";
import { silentLogger } from "../protocol/logger.js";
import { MCPServer } from "./mcp/server.js";
import { Server } from "./server.js";

const notes = defineExtension({
  id: "com.example/notes",
  serverSettings: z.object({ max: z.number().int() }),
  methods: {
    "notes/get": {
      params: z.object({ id: z.string() }),
      result: z.object({ text: z.string() }),
      cacheable: true,
    },
    "notes/delete": {
      params: z.object({ id: z.string() }),
      result: z.object({ deleted: z.boolean() }),
      requiresClientDeclaration: true,
    },
  },
  notifications: { "notifications/notes/changed": z.object({ id: z.string() }) },
});

const handlers = {
  "notes/get": (_ctx: unknown, { id }: { id: string }) => ({ text: `note ${id}` }),
  "notes/delete": async () => ({ deleted: true }),
};

async function call(
  server: Server,
  message: ReturnType<typeof rpc>,
  notify?: (n: JSONRPCNotification) => void,
) {
  return (await server.handle(message, {
    signal: new AbortController().signal,
    ...(notify ? { notify } : {}),
  })) as JSONRPCResponse & {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

describe("Server.extension", () => {
  it("advertises the settings in server/discover and serves the methods with shaped results", async () => {
    const server = new Server("s", { logger: silentLogger, cache: { ttlMs: 60_000 } }).extension(notes, {
      settings: { max: 10 },
      handlers,
    });
    const discover = await call(server, rpc("server/discover"));
    expect(discover.result?.capabilities).toMatchObject({ extensions: { "com.example/notes": { max: 10 } } });
    const got = await call(server, rpc("notes/get", { id: "a" }));
    expect(got.result).toMatchObject({
      resultType: "complete",
      text: "note a",
      ttlMs: 60_000,
      cacheScope: "private",
    });
    expect(
      (got.result as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/serverInfo"],
    ).toBeDefined();
  });

  it("answers -32602 for bad params, -32021 for an undeclared requiresClientDeclaration method, -32601 when not registered", async () => {
    const server = new Server("s", { logger: silentLogger }).extension(notes, {
      settings: { max: 1 },
      handlers,
    });
    expect((await call(server, rpc("notes/get", { id: 5 }))).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: id/),
    });
    const undeclared = await call(server, rpc("notes/delete", { id: "a" }));
    expect(undeclared.error?.code).toBe(-32021);
    expect(undeclared.error?.data).toEqual({
      requiredCapabilities: { extensions: { "com.example/notes": {} } },
    });
    const declared = await call(
      server,
      rpc("notes/delete", {
        id: "a",
        _meta: requestMeta({ extensions: { "com.example/notes": {}, "org.unknown/thing": { a: 1 } } }),
      }),
    );
    expect(declared.result).toMatchObject({ resultType: "complete", deleted: true });
    expect(declared.result).not.toHaveProperty("ttlMs");
    const plain = new Server("s", { logger: silentLogger });
    expect((await call(plain, rpc("notes/get", { id: "a" }))).error?.code).toBe(-32601);
  });

  it("answers -32603 (logged) for a result that does not match the schema", async () => {
    const server = new Server("s", { logger: silentLogger }).extension(notes, {
      settings: { max: 1 },
      handlers: { ...handlers, "notes/get": () => ({ text: 1 }) as never },
    });
    expect((await call(server, rpc("notes/get", { id: "a" }))).error?.code).toBe(-32603);
  });

  it("sends an extension notification on the request's channel, its params checked", async () => {
    const server = new Server("s", { logger: silentLogger });
    server.extension(notes, {
      settings: { max: 1 },
      handlers: {
        ...handlers,
        "notes/get": (ctx, { id }) => {
          server.notifyExtension(notes, "notifications/notes/changed", { id }, ctx);
          return { text: id };
        },
      },
    });
    const sent: JSONRPCNotification[] = [];
    await call(server, rpc("notes/get", { id: "z" }), (n) => sent.push(n));
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/notes/changed", params: { id: "z" } }]);
    expect(() => server.notifyExtension(notes, "notifications/notes/changed", { id: 1 } as never)).toThrow(
      TypeError,
    );
    expect(() => server.notifyExtension(notes, "notifications/other" as never, {} as never)).toThrow(
      TypeError,
    );
  });

  it("takes per-method cache hints for a cacheable extension method from the cache option", async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const server = new Server("s", {
      logger,
      cache: { ttlMs: 1000, methods: { "notes/get": { ttlMs: 30_000, cacheScope: "public" } } },
    }).extension(notes, { settings: { max: 1 }, handlers });
    expect((await call(server, rpc("notes/get", { id: "a" }))).result).toMatchObject({
      ttlMs: 30_000,
      cacheScope: "public",
    });
    expect(warnings).toEqual([]);
    // The same on an MCPServer, whose options reach its Server.
    const mcp = new MCPServer("m", {
      logger: silentLogger,
      cache: { methods: { "notes/get": { ttlMs: 7 } } },
    }).extension(notes, { settings: { max: 1 }, handlers });
    const viaMcp = (await mcp.handle(rpc("notes/get", { id: "b" }), {
      signal: new AbortController().signal,
    })) as JSONRPCResponse & { result?: Record<string, unknown> };
    expect(viaMcp.result).toMatchObject({ ttlMs: 7, cacheScope: "private" });
  });

  it("refuses cache hints for a method that is not cacheable: core at construction, extension at registration", () => {
    expect(() => new Server("s", { cache: { methods: { "tools/call": { ttlMs: 1 } } } })).toThrow(
      /"tools\/call" is not a cacheable method/,
    );
    expect(
      () => new Server("s", { cache: { methods: { "notifications/notes/changed": { ttlMs: 1 } } } }),
    ).toThrow(RangeError);
    const server = new Server("s", {
      logger: silentLogger,
      cache: { methods: { "notes/delete": { ttlMs: 1 } } },
    });
    expect(() => server.extension(notes, { settings: { max: 1 }, handlers })).toThrow(
      new TypeError(
        'Server.extension(com.example/notes): option cache.methods["notes/delete"] names a method of the extension that is not cacheable',
      ),
    );
    // The refused registration left nothing behind: the extension is not advertised.
    expect(server.capabilities.extensions).toBeUndefined();
  });

  it("warns once, at the first request, of a cache.methods key that no registered extension claimed", async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const server = new Server("s", { logger, cache: { methods: { "notes/gett": { ttlMs: 1 } } } }).extension(
      notes,
      { settings: { max: 1 }, handlers },
    );
    await call(server, rpc("notes/get", { id: "a" }));
    await call(server, rpc("notes/get", { id: "a" }));
    expect(warnings).toEqual([
      'Server option cache.methods["notes/gett"] names neither a cacheable core method nor a cacheable method of a registered extension; it is ignored',
    ]);
  });

  it("refuses bad registrations with a TypeError", () => {
    const server = () => new Server("s", { logger: silentLogger });
    expect(() => server().extension({ id: "x" } as never, { handlers } as never)).toThrow(TypeError);
    expect(() => server().extension(notes, { settings: { max: "1" } as never, handlers })).toThrow(
      /settings/,
    );
    expect(() =>
      server().extension(notes, {
        settings: { max: 1 },
        handlers: { "notes/get": handlers["notes/get"] } as never,
      }),
    ).toThrow(/notes\/delete.*handler/);
    expect(() =>
      server().extension(notes, {
        settings: { max: 1 },
        handlers: { ...handlers, "notes/x": () => ({}) } as never,
      }),
    ).toThrow(/names no method/);
    const twice = server().extension(notes, { settings: { max: 1 }, handlers });
    expect(() => twice.extension(notes, { settings: { max: 1 }, handlers })).toThrow(/registered already/);
    const rival = defineExtension({
      id: "org.rival/notes",
      methods: { "notes/get": { params: z.object({}), result: z.object({}) } },
    });
    expect(() => twice.extension(rival, { handlers: { "notes/get": () => ({}) } })).toThrow(
      /com\.example\/notes already/,
    );
    expect(() =>
      new Server("s", { logger: silentLogger, tasks: {} }).extension(
        defineExtension({ id: "io.modelcontextprotocol/tasks" }),
        { handlers: {} },
      ),
    ).toThrow(TypeError);
  });

  it("MCPServer.extension hands the handler the MCPServer Context", async () => {
    const mcp = new MCPServer("m", { logger: silentLogger });
    let readResource: unknown;
    mcp.extension(notes, {
      settings: { max: 2 },
      handlers: {
        ...handlers,
        "notes/get": (ctx, { id }) => {
          readResource = ctx.readResource;
          return { text: id };
        },
      },
    });
    const response = (await mcp.handle(rpc("notes/get", { id: "q" }), {
      signal: new AbortController().signal,
    })) as JSONRPCResponse & { result?: Record<string, unknown> };
    expect(response.result).toMatchObject({ text: "q" });
    expect(typeof readResource).toBe("function");
  });
});

describe("the client's extensions option", () => {
  it("is checked at construction", async () => {
    const { Client } = await import("../client/client.js");
    const { InMemoryTransport } = await import("../transport/memory.js");
    const transport = new InMemoryTransport(new Server("s", { logger: silentLogger }));
    expect(() => new Client(transport, { extensions: "x" as never })).toThrow(TypeError);
    expect(() => new Client(transport, { extensions: [{}] as never })).toThrow(TypeError);
    expect(() => new Client(transport, { extensions: [notes, notes] })).toThrow(/twice/);
    const strict = defineExtension({
      id: "com.example/strict",
      clientSettings: z.object({ level: z.number() }),
    });
    expect(
      () => new Client(transport, { extensions: [{ extension: strict, settings: { level: "x" } as never }] }),
    ).toThrow(TypeError);
    const client = new Client(transport, {
      extensions: [notes, { extension: strict, settings: { level: 2 } }],
    });
    expect(client.session.capabilities.extensions).toEqual({
      "com.example/notes": {},
      "com.example/strict": { level: 2 },
    });
    expect(() => client.onExtensionNotification(notes, "notifications/x" as never, () => {})).toThrow(
      TypeError,
    );
    await expect(client.requestExtension(notes, "notes/none" as never, {} as never)).rejects.toThrow(
      TypeError,
    );
  });
});
