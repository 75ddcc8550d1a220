import { describe, expect, it } from "vitest";
import type { ServerCapabilities } from "../../protocol/schema/base.js";
import { MCPServer } from "../mcp/server.js";
import { Server } from "../server.js";
import { handshake, legacyEnv, legacyRequest, testSession } from "./legacy-test-fixtures.js";
import { LegacySessions } from "./sessions.js";

function everything(capabilities?: ServerCapabilities) {
  return new Server("Everything", {
    ...(capabilities === undefined ? {} : { capabilities }),
    onListTools: () => ({ tools: [] }),
    onListPrompts: () => ({ prompts: [] }),
    onReadResource: (_ctx, params) => ({ contents: [{ uri: params.uri, text: "" }] }),
  });
}

const methods = (session: ReturnType<typeof testSession>) => session.notified.map((n) => n.method);

describe("list_changed on 2025-era sessions", () => {
  it("reaches every session that completed initialize", async () => {
    const server = everything();
    const [a, b, stranger] = [testSession("a"), testSession("b"), testSession("c")];
    await handshake(server, a);
    await handshake(server, b);
    server.notifyListChanged("tools");
    server.notifyListChanged("prompts");
    server.notifyListChanged("resources");
    const expected = [
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
    ];
    expect(methods(a)).toEqual(expected);
    expect(methods(b)).toEqual(expected);
    expect(methods(stranger)).toEqual([]);
    expect(a.notified[0]).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  it("stops reaching a session once its signal aborts", async () => {
    const server = everything();
    const session = testSession();
    await handshake(server, session);
    session.end();
    server.notifyListChanged("tools");
    expect(session.notified).toEqual([]);
  });

  it("is not sent for a kind whose capability does not declare listChanged", async () => {
    const server = everything({ tools: {} });
    const session = testSession();
    await handshake(server, session);
    server.notifyListChanged("tools");
    expect(session.notified).toEqual([]);
  });

  it("reaches sessions when an MCPServer registers a tool", async () => {
    const mcp = new MCPServer("Live");
    mcp.tool("first", {}, () => "one");
    const session = testSession();
    await handshake(mcp, session);
    mcp.tool("second", {}, () => "two");
    expect(methods(session)).toEqual(["notifications/tools/list_changed"]);
  });
});

describe("resources/updated on 2025-era sessions", () => {
  it("reaches only the sessions subscribed to that exact uri", async () => {
    const server = everything();
    const [watcher, other] = [testSession("w"), testSession("o")];
    await handshake(server, watcher);
    await handshake(server, other);
    await server.handle(legacyRequest("resources/subscribe", { uri: "notes://1" }), legacyEnv(watcher));
    await server.handle(legacyRequest("resources/subscribe", { uri: "notes://2" }), legacyEnv(other));
    server.notifyResourceUpdated("notes://1");
    server.notifyResourceUpdated("notes://1/child");
    expect(watcher.notified).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "notes://1" } },
    ]);
    expect(other.notified).toEqual([]);
  });

  it("stops after resources/unsubscribe", async () => {
    const server = everything();
    const session = testSession();
    await handshake(server, session);
    await server.handle(legacyRequest("resources/subscribe", { uri: "notes://1" }), legacyEnv(session));
    await server.handle(legacyRequest("resources/unsubscribe", { uri: "notes://1" }), legacyEnv(session));
    server.notifyResourceUpdated("notes://1");
    expect(session.notified).toEqual([]);
  });
});

describe("the session registry", () => {
  it("forgets a session when it ends and keeps notifying the others when one notify throws", () => {
    const errors: string[] = [];
    const sessions = new LegacySessions((message) => errors.push(message));
    const broken = {
      ...testSession(),
      notify: () => {
        throw new Error("pipe closed");
      },
    };
    const fine = testSession();
    sessions.add(broken);
    sessions.add(fine);
    expect(sessions.size).toBe(2);
    sessions.publishListChanged("tools");
    expect(methods(fine)).toEqual(["notifications/tools/list_changed"]);
    expect(errors).toEqual(["sending notifications/tools/list_changed to a session failed"]);
    fine.end();
    expect(sessions.size).toBe(1);
  });

  it("never adds a session that already ended", () => {
    const sessions = new LegacySessions(() => {});
    const session = testSession();
    session.end();
    sessions.add(session);
    expect(sessions.size).toBe(0);
  });
});
