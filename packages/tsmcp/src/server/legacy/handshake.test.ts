import { describe, expect, it } from "vitest";
import { requestMeta, rpc } from "../../../../../test/helpers/meta.js";
import { HANDSHAKE_PROTOCOL_VERSIONS } from "../../protocol/versions.js";
import { Server } from "../server.js";
import { handshakeCapabilities, MAX_HANDSHAKE_CHARS, negotiateProtocolVersion } from "./handshake.js";
import {
  errorOf,
  handshake,
  initializeParams,
  legacyEnv,
  legacyRequest,
  resultOf,
  testSession,
} from "./legacy-test-fixtures.js";

function toolServer(options: { instructions?: string } = {}) {
  return new Server("Fleet", {
    version: "2.0.0",
    ...options,
    onListTools: () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    onCallTool: () => ({ content: [{ type: "text", text: "ok" }] }),
  });
}

describe("initialize on a 2025-era session", () => {
  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])(
    "answers a client asking for %s with that revision",
    async (version) => {
      const session = testSession();
      const response = await toolServer().handle(
        legacyRequest("initialize", initializeParams(version)),
        legacyEnv(session),
      );
      expect(resultOf(response).protocolVersion).toBe(version);
      expect(session.handshake?.protocolVersion).toBe(version);
    },
  );

  it("answers a revision it does not serve with the newest handshake revision", async () => {
    for (const requested of ["2024-11-05", "1999-01-01", "2026-07-28"]) {
      const session = testSession();
      const response = await toolServer().handle(
        legacyRequest("initialize", initializeParams(requested)),
        legacyEnv(session),
      );
      expect(resultOf(response).protocolVersion, requested).toBe("2025-11-25");
    }
    expect(negotiateProtocolVersion("2024-11-05")).toBe(HANDSHAKE_PROTOCOL_VERSIONS[0]);
  });

  it("pins the handshake revisions served, newest first", () => {
    expect(HANDSHAKE_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26"]);
  });

  it("refuses a non-string protocolVersion with -32602 naming the field, and records no handshake", async () => {
    const session = testSession();
    const error = errorOf(
      await toolServer().handle(legacyRequest("initialize", initializeParams(20251125)), legacyEnv(session)),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params: protocolVersion/);
    expect(session.handshake).toBeUndefined();
  });

  it("refuses initialize without clientInfo or capabilities with -32602", async () => {
    for (const params of [
      { protocolVersion: "2025-11-25", capabilities: {} },
      { protocolVersion: "2025-11-25", clientInfo: { name: "c", version: "1" } },
      undefined,
    ]) {
      const error = errorOf(
        await toolServer().handle(legacyRequest("initialize", params), legacyEnv(testSession())),
      );
      expect(error.code, JSON.stringify(params)).toBe(-32602);
    }
  });

  it("refuses clientInfo and capabilities larger than MAX_HANDSHAKE_CHARS of JSON with -32602, and records no handshake", async () => {
    const session = testSession();
    const params = initializeParams("2025-11-25", {
      experimental: { blob: { text: "x".repeat(MAX_HANDSHAKE_CHARS) } },
    });
    const error = errorOf(await toolServer().handle(legacyRequest("initialize", params), legacyEnv(session)));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(String(MAX_HANDSHAKE_CHARS));
    expect(session.handshake).toBeUndefined();
    const small = initializeParams("2025-11-25", { experimental: { blob: { text: "x".repeat(1000) } } });
    expect(
      resultOf(await toolServer().handle(legacyRequest("initialize", small), legacyEnv(testSession())))
        .protocolVersion,
    ).toBe("2025-11-25");
  });

  it("answers with serverInfo, instructions and capabilities derived from the handlers", async () => {
    const result = await handshake(toolServer({ instructions: "Use echo." }), testSession());
    expect(result).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { logging: {}, tools: { listChanged: true } },
      serverInfo: { name: "Fleet", version: "2.0.0" },
      instructions: "Use echo.",
    });
  });

  it("leaves instructions out when the server has none", async () => {
    expect(await handshake(toolServer(), testSession())).not.toHaveProperty("instructions");
  });

  it("advertises capabilities in the 2025-11-25 shape, with the extensions but the tasks one (core tasks there)", () => {
    expect(
      handshakeCapabilities({
        tools: { listChanged: true },
        extensions: { "com.example/x": { a: 1 }, "io.modelcontextprotocol/tasks": {} },
        experimental: { a: {} },
      }),
    ).toEqual({
      tools: { listChanged: true },
      experimental: { a: {} },
      extensions: { "com.example/x": { a: 1 } },
    });
    expect(handshakeCapabilities({ extensions: { "io.modelcontextprotocol/tasks": {} } })).toEqual({});
  });

  it("records what the client declared on the session", async () => {
    const session = testSession();
    await handshake(toolServer(), session, { elicitation: { form: {} } }, "2025-06-18");
    expect(session.handshake).toEqual({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "old-client", version: "1.0.0" },
      clientCapabilities: { elicitation: { form: {} } },
    });
    expect(session.initialized).toBe(true);
  });

  it("refuses a second initialize on the same session with -32600 and keeps the first handshake", async () => {
    const server = toolServer();
    const session = testSession();
    await handshake(server, session, {}, "2025-06-18");
    const error = errorOf(
      await server.handle(legacyRequest("initialize", initializeParams()), legacyEnv(session)),
    );
    expect(error.code).toBe(-32600);
    expect(session.handshake?.protocolVersion).toBe("2025-06-18");
  });

  it("marks the session initialized only on notifications/initialized after a handshake", async () => {
    const server = toolServer();
    const session = testSession();
    const initialized = { jsonrpc: "2.0" as const, method: "notifications/initialized" };
    expect(await server.handle(initialized, legacyEnv(session))).toBeUndefined();
    expect(session.initialized).toBe(false);
    await server.handle(legacyRequest("initialize", initializeParams()), legacyEnv(session));
    expect(session.initialized).toBe(false);
    await server.handle(initialized, legacyEnv(session));
    expect(session.initialized).toBe(true);
  });

  it("answers no notification, and takes those it does not know without effect", async () => {
    const server = toolServer();
    const session = testSession();
    await handshake(server, session);
    for (const method of [
      "notifications/cancelled",
      "notifications/roots/list_changed",
      "notifications/unknown",
    ]) {
      expect(
        await server.handle({ jsonrpc: "2.0", method, params: { requestId: 1 } }, legacyEnv(session)),
      ).toBeUndefined();
    }
    expect(session.notified).toEqual([]);
    expect(resultOf(await server.handle(legacyRequest("tools/list"), legacyEnv(session))).tools).toHaveLength(
      1,
    );
  });

  it("keeps answering initialize without a session as the stateless core does", async () => {
    const error = errorOf(
      await toolServer().handle(
        rpc("initialize", initializeParams()),
        legacyEnv(testSession(), { session: undefined }),
      ),
    );
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ["2026-07-28"], requested: "2025-11-25" });
  });
});

describe("the era gates of a 2025-era session", () => {
  it("answers ping before and after initialize with an empty result", async () => {
    const server = toolServer();
    const session = testSession();
    expect(resultOf(await server.handle(legacyRequest("ping"), legacyEnv(session)))).toEqual({});
    await handshake(server, session);
    expect(resultOf(await server.handle(legacyRequest("ping"), legacyEnv(session)))).toEqual({});
  });

  it("refuses any other request before initialize with -32600 session not initialized", async () => {
    const server = toolServer();
    for (const method of ["tools/list", "tools/call", "logging/setLevel", "server/discover"]) {
      const error = errorOf(await server.handle(legacyRequest(method, {}), legacyEnv(testSession())));
      expect(error.code, method).toBe(-32600);
      expect(error.message, method).toMatch(/session not initialized/);
    }
  });

  it("answers the 2026-only methods with -32601 on an initialized session", async () => {
    const server = toolServer();
    const session = testSession();
    await handshake(server, session);
    for (const method of ["server/discover", "subscriptions/listen"]) {
      const params = method === "subscriptions/listen" ? { notifications: { toolsListChanged: true } } : {};
      const error = errorOf(await server.handle(legacyRequest(method, params), legacyEnv(session)));
      expect(error.code, method).toBe(-32601);
    }
  });

  it("answers a method without a handler, or unknown, with -32601", async () => {
    const server = toolServer();
    const session = testSession();
    await handshake(server, session);
    for (const method of ["prompts/list", "completion/complete", "resources/subscribe", "nope/nothing"]) {
      expect(errorOf(await server.handle(legacyRequest(method, {}), legacyEnv(session))).code, method).toBe(
        -32601,
      );
    }
  });

  it("keeps serving the 2026-07-28 wire unchanged next to sessions", async () => {
    const server = toolServer();
    await handshake(server, testSession());
    const result = resultOf(
      await server.handle(rpc("tools/list", { _meta: requestMeta() }), {
        signal: new AbortController().signal,
      }),
    );
    expect(result.resultType).toBe("complete");
    expect(result.ttlMs).toBe(0);
  });
});
