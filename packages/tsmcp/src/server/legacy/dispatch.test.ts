import { describe, expect, it } from "vitest";
import type { JSONRPCNotification } from "../../protocol/jsonrpc.js";
import type { RequestContext } from "../context.js";
import { Server } from "../server.js";
import { MAX_SUBSCRIBED_URI_LENGTH } from "./dispatch.js";
import {
  errorOf,
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf,
  testSession,
} from "./legacy-test-fixtures.js";

function catalogServer(seen: RequestContext[] = []) {
  return new Server("Catalog", {
    onListTools: (ctx) => {
      seen.push(ctx);
      return { tools: [{ name: "count", inputSchema: { type: "object" } }], ttlMs: 60_000 };
    },
    onCallTool: (ctx, params) => {
      seen.push(ctx);
      ctx.sendProgress({ progress: 1, total: 2 });
      ctx.log("debug", "counting");
      ctx.log("error", "out of fingers");
      return { content: [{ type: "text", text: `called ${params.name}` }], _meta: { mine: true } };
    },
    onReadResource: (_ctx, params) => ({ contents: [{ uri: params.uri, text: "hello" }] }),
    onComplete: () => ({ completion: { values: ["a"] } }),
  });
}

describe("results on a 2025-era session", () => {
  it("carry no resultType, cache hints or serverInfo stamp", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const list = resultOf(await server.handle(legacyRequest("tools/list"), legacyEnv(session)));
    expect(list).toEqual({ tools: [{ name: "count", inputSchema: { type: "object" } }] });
    const read = resultOf(
      await server.handle(legacyRequest("resources/read", { uri: "notes://1" }), legacyEnv(session)),
    );
    expect(read).toEqual({ contents: [{ uri: "notes://1", text: "hello" }] });
  });

  it("keep the handler's own _meta, unstamped", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const result = resultOf(
      await server.handle(legacyRequest("tools/call", { name: "count" }), legacyEnv(session)),
    );
    expect(result).toEqual({ content: [{ type: "text", text: "called count" }], _meta: { mine: true } });
  });

  it("serve completion/complete with params validated by the same schema", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const params = { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } };
    expect(
      resultOf(await server.handle(legacyRequest("completion/complete", params), legacyEnv(session))),
    ).toEqual({ completion: { values: ["a"] } });
    const bad = errorOf(await server.handle(legacyRequest("completion/complete", {}), legacyEnv(session)));
    expect(bad.code).toBe(-32602);
  });

  it("refuse invalid params with -32602 as at 2026-07-28", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const error = errorOf(await server.handle(legacyRequest("tools/call", { name: 7 }), legacyEnv(session)));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params: name/);
  });

  it("refuse a malformed progressToken in _meta with -32602", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const error = errorOf(
      await server.handle(
        legacyRequest("tools/call", { name: "count", _meta: { progressToken: { no: 1 } } }),
        legacyEnv(session),
      ),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/_meta\.progressToken/);
  });
});

describe("the request context on a 2025-era session", () => {
  it("reads the version, client info and capabilities from the handshake", async () => {
    const seen: RequestContext[] = [];
    const server = catalogServer(seen);
    const session = testSession();
    await handshake(server, session, { roots: {} }, "2025-03-26");
    await server.handle(legacyRequest("tools/list"), legacyEnv(session));
    const [ctx] = seen;
    expect(ctx?.protocolVersion).toBe("2025-03-26");
    expect(ctx?.clientInfo).toEqual({ name: "old-client", version: "1.0.0" });
    expect(ctx?.clientCapabilities).toEqual({ roots: {} });
    expect(ctx?.session).toBe(session);
  });

  it("has no session on the 2026-07-28 wire", async () => {
    const seen: RequestContext[] = [];
    const { rpc } = await import("../../../../../test/helpers/meta.js");
    await catalogServer(seen).handle(rpc("tools/list"), { signal: new AbortController().signal });
    expect(seen[0]?.session).toBeUndefined();
    expect(seen[0]?.protocolVersion).toBe("2026-07-28");
  });

  it("sends progress for the progressToken of params._meta", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const env = legacyEnv(session);
    await server.handle(legacyRequest("tools/call", { name: "count", _meta: { progressToken: "p-1" } }), env);
    expect(env.notified.filter((n) => n.method === "notifications/progress")).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p-1", progress: 1, total: 2 },
      },
    ]);
  });

  it("sends no progress without a progressToken", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const env = legacyEnv(session);
    await server.handle(legacyRequest("tools/call", { name: "count" }), env);
    expect(env.notified.filter((n) => n.method === "notifications/progress")).toEqual([]);
  });
});

describe("logging on a 2025-era session", () => {
  const messages = (notified: JSONRPCNotification[]) =>
    notified.filter((n) => n.method === "notifications/message").map((n) => n.params);

  it("sends no log messages until the client sets a level", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    const env = legacyEnv(session);
    await server.handle(legacyRequest("tools/call", { name: "count" }), env);
    expect(messages(env.notified)).toEqual([]);
  });

  it("sends the messages at or above the level set by logging/setLevel", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    expect(
      resultOf(
        await server.handle(legacyRequest("logging/setLevel", { level: "warning" }), legacyEnv(session)),
      ),
    ).toEqual({});
    expect(session.logLevel).toBe("warning");
    const env = legacyEnv(session);
    await server.handle(legacyRequest("tools/call", { name: "count" }), env);
    expect(messages(env.notified)).toEqual([{ level: "error", data: "out of fingers" }]);

    await server.handle(legacyRequest("logging/setLevel", { level: "debug" }), legacyEnv(session));
    const verbose = legacyEnv(session);
    await server.handle(legacyRequest("tools/call", { name: "count" }), verbose);
    expect(messages(verbose.notified)).toEqual([
      { level: "debug", data: "counting" },
      { level: "error", data: "out of fingers" },
    ]);
  });

  it("refuses an unknown level with -32602 and keeps the level it had", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    await server.handle(legacyRequest("logging/setLevel", { level: "info" }), legacyEnv(session));
    const error = errorOf(
      await server.handle(legacyRequest("logging/setLevel", { level: "loud" }), legacyEnv(session)),
    );
    expect(error.code).toBe(-32602);
    expect(session.logLevel).toBe("info");
  });
});

describe("resource subscriptions on a 2025-era session", () => {
  it("adds and removes the URI on the session", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    expect(
      resultOf(
        await server.handle(legacyRequest("resources/subscribe", { uri: "notes://1" }), legacyEnv(session)),
      ),
    ).toEqual({});
    expect([...session.resourceSubscriptions]).toEqual(["notes://1"]);
    expect(
      resultOf(
        await server.handle(legacyRequest("resources/unsubscribe", { uri: "notes://1" }), legacyEnv(session)),
      ),
    ).toEqual({});
    expect(session.resourceSubscriptions.size).toBe(0);
  });

  it("refuses a subscription without a string uri with -32602", async () => {
    const server = catalogServer();
    const session = testSession();
    await handshake(server, session);
    expect(
      errorOf(await server.handle(legacyRequest("resources/subscribe", {}), legacyEnv(session))).code,
    ).toBe(-32602);
  });

  it("answers -32601 when the server does not offer subscriptions", async () => {
    const server = new Server("NoSubs", {
      onReadResource: () => ({ contents: [] }),
      capabilities: { resources: { listChanged: true } },
    });
    const session = testSession();
    await handshake(server, session);
    const error = errorOf(
      await server.handle(legacyRequest("resources/subscribe", { uri: "a://b" }), legacyEnv(session)),
    );
    expect(error.code).toBe(-32601);
  });

  it("refuses a subscription past maxResourceSubscriptions with -32602, and takes one again after an unsubscribe", async () => {
    const server = new Server("FewSubs", {
      onReadResource: () => ({ contents: [] }),
      capabilities: { resources: { subscribe: true } },
      maxResourceSubscriptions: 2,
    });
    const session = testSession();
    await handshake(server, session);
    const subscribe = (uri: string) =>
      server.handle(legacyRequest("resources/subscribe", { uri }), legacyEnv(session));
    expect(resultOf(await subscribe("a://1"))).toEqual({});
    expect(resultOf(await subscribe("a://2"))).toEqual({});
    expect(resultOf(await subscribe("a://2"))).toEqual({});
    expect(errorOf(await subscribe("a://3")).code).toBe(-32602);
    expect([...session.resourceSubscriptions]).toEqual(["a://1", "a://2"]);
    await server.handle(legacyRequest("resources/unsubscribe", { uri: "a://1" }), legacyEnv(session));
    expect(resultOf(await subscribe("a://3"))).toEqual({});
  });

  it("refuses a subscription to a uri longer than MAX_SUBSCRIBED_URI_LENGTH with -32602, storing nothing", async () => {
    const server = new Server("LongUris", {
      onReadResource: () => ({ contents: [] }),
      capabilities: { resources: { subscribe: true } },
    });
    const session = testSession();
    await handshake(server, session);
    const subscribe = (uri: string) =>
      server.handle(legacyRequest("resources/subscribe", { uri }), legacyEnv(session));
    const longest = `a://${"x".repeat(MAX_SUBSCRIBED_URI_LENGTH - 4)}`;
    expect(resultOf(await subscribe(longest))).toEqual({});
    const error = errorOf(await subscribe(`${longest}y`));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`);
    expect([...session.resourceSubscriptions]).toEqual([longest]);
  });

  it("checks maxResourceSubscriptions when the server is built", () => {
    expect(() => new Server("s", { maxResourceSubscriptions: 0 })).toThrow(RangeError);
  });
});
