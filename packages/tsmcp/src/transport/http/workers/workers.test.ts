/**
 * The Durable Object session adapter in one Node.js process: the router and the session objects
 * over a stand-in of the platform's namespace (a map of objects by id, as workerd keeps them), with
 * a real `MCPServer` and the official 1.x client. The same flows run under workerd in
 * test/runtimes/workers-sessions.test.ts. Spec (2025-11-25): basic/transports §Session Management.
 */
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { createHttpHandler } from "../server/server-handler.js";
import { createSessionObject, createSessionRouter, type DurableObjectNamespaceLike } from "./index.js";
import { joinObjectSessionId, splitObjectSessionId } from "./session-id.js";

function createServer(): MCPServer {
  const mcp = new MCPServer("workers-test", {
    version: "1.0.0",
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool("confirm", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    return answer.action === "accept" && answer.content?.ok === true ? "confirmed" : "not confirmed";
  });
  return mcp;
}

const SessionObject = createSessionObject(() => createServer());

/** The platform's namespace as workerd keeps it: objects by id, started on first use. */
function namespace(): DurableObjectNamespaceLike & { readonly started: number } {
  const objects = new Map<string, InstanceType<typeof SessionObject>>();
  let next = 0;
  return {
    get started() {
      return objects.size;
    },
    newUniqueId: () => {
      const id = (next++).toString(16).padStart(64, "0");
      return { toString: () => id };
    },
    idFromString: (id) => {
      if (!/^[0-9a-f]{64}$/.test(id)) throw new TypeError("Invalid Durable Object ID");
      return { toString: () => id };
    },
    get: (id) => ({
      fetch: (request) => {
        const key = id.toString();
        let object = objects.get(key);
        if (object === undefined) {
          object = new SessionObject({ id }, {});
          objects.set(key, object);
        }
        return object.fetch(request);
      },
    }),
  };
}

function routerFor(sessions: DurableObjectNamespaceLike) {
  const handler = createHttpHandler(createServer(), { legacy: "stateless" });
  return createSessionRouter({ sessions, handler });
}

const BASE = "http://127.0.0.1/mcp";

async function sdkClient(route: (request: Request) => Promise<Response>, ok: boolean) {
  const client = new SdkClient(
    { name: "legacy-app", version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok } }));
  const transport = new StreamableHTTPClientTransport(new URL(BASE), {
    fetch: (input, init) => route(new Request(input, init)),
  });
  await client.connect(transport);
  return { client, transport };
}

function post(headers: Record<string, string>, body: unknown): Request {
  return new Request(BASE, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("session ids minted in a Durable Object", () => {
  it("join the object's id and the handler's id, and split back into both", () => {
    const joined = joinObjectSessionId("ab12", "4b0c-uuid");
    expect(joined).toBe("ab12.4b0c-uuid");
    expect(splitObjectSessionId(joined)).toEqual({ objectId: "ab12", sessionId: "4b0c-uuid" });
  });

  it("name no object without a dot, with an empty part, a bad character or over 256 characters", () => {
    for (const value of ["ab12", ".x", "ab12.", "a/b.x", `${"a".repeat(250)}.${"b".repeat(10)}`]) {
      expect(splitObjectSessionId(value), value).toBeUndefined();
    }
  });
});

describe("createSessionRouter and createSessionObject", () => {
  it("serve an official 1.x client's question and answer inside its session's object", async () => {
    const sessions = namespace();
    const route = routerFor(sessions);
    const yes = await sdkClient(route, true);
    const no = await sdkClient(route, false);
    try {
      expect(sessions.started).toBe(2);
      expect(yes.transport.sessionId).toMatch(/^0{64}\.[0-9a-f-]{36}$/);
      const [confirmed, refused] = await Promise.all([
        yes.client.callTool({ name: "confirm", arguments: {} }),
        no.client.callTool({ name: "confirm", arguments: {} }),
      ]);
      expect(confirmed.content).toEqual([{ type: "text", text: "confirmed" }]);
      expect(refused.content).toEqual([{ type: "text", text: "not confirmed" }]);
    } finally {
      await yes.client.close();
      await no.client.close();
    }
  });

  it("answers 404 to an id naming no object, and sends what names no session to the Worker's handler", async () => {
    const sessions = namespace();
    const route = routerFor(sessions);
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    for (const id of ["nope", `${"z".repeat(64)}.x`, `${"0".repeat(64)}.x`]) {
      const response = await route(
        post({ "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25" }, ping),
      );
      expect(response.status, id).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: -32600, message: "Session not found" } });
    }
    // The last id was well formed: its object started, and answered 404 itself.
    expect(sessions.started).toBe(1);
    const get = await route(new Request(BASE, { headers: { Accept: "text/event-stream" } }));
    expect(get.status).toBe(405);
    const notInitialize = await route(post({ "MCP-Protocol-Version": "2025-11-25" }, ping));
    expect(notInitialize.status).toBe(200);
    expect(await notInitialize.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(sessions.started).toBe(1);
  });

  it("leaves a body over maxBodyBytes to the Worker's handler, which refuses it", async () => {
    const sessions = namespace();
    const handler = createHttpHandler(createServer(), { legacy: "stateless", maxBodyBytes: 64 });
    const route = createSessionRouter({ sessions, handler, maxBodyBytes: 64 });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "x".repeat(100), version: "1" },
      },
    };
    const response = await route(post({}, initialize));
    expect(response.status).toBe(413);
    expect(sessions.started).toBe(0);
  });

  it("answers 503 when a session's object cannot be reached, and logs why", async () => {
    const logger = recordingLogger();
    const unreachable = new Error("object overloaded");
    const sessions: DurableObjectNamespaceLike = {
      ...namespace(),
      get: () => ({ fetch: () => Promise.reject(unreachable) }),
    };
    const route = createSessionRouter({ sessions, handler: createHttpHandler(createServer()), logger });
    const response = await route(
      post({ "Mcp-Session-Id": `${"0".repeat(64)}.x` }, { jsonrpc: "2.0", id: 1, method: "ping" }),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: -32603 } });
    expect(logger.records).toEqual([
      {
        level: "error",
        message: "A session's Durable Object could not be reached",
        fields: { error: unreachable },
      },
    ]);
  });

  it("refuse bad options when they are built", () => {
    const handler = createHttpHandler(createServer());
    const bad = { newUniqueId: () => ({}) } as unknown as DurableObjectNamespaceLike;
    expect(() => createSessionRouter({ sessions: bad, handler })).toThrow(
      /createSessionRouter option "sessions" must be a Durable Object namespace binding/,
    );
    expect(() =>
      createSessionRouter({ sessions: namespace(), handler: "no" as unknown as typeof handler }),
    ).toThrow(TypeError);
    expect(() => createSessionRouter({ sessions: namespace(), handler, maxBodyBytes: 0 })).toThrow(
      RangeError,
    );
    expect(() => createSessionObject("no" as never)).toThrow(/option "server" must be a function/);
    const Stateless = createSessionObject(createServer, { legacy: "stateless" } as never);
    expect(() => new Stateless({ id: { toString: () => "0" } }, {})).toThrow(
      /createSessionObject option "legacy" must be "session" or absent, got "stateless"/,
    );
  });
});
