/**
 * The `authenticate` hook and the protected resource metadata document on the Streamable HTTP
 * server, over the web handler and over `serve()` on 127.0.0.1: where the hook runs, what its
 * answers become, which sessions an identity may use, and which paths serve the document.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { post as postOverHttp } from "../../../../../../test/helpers/mcp-post.js";
import { requestMeta, rpc } from "../../../../../../test/helpers/meta.js";
import type { JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import type { RequestContext } from "../../../server/context.js";
import { Server } from "../../../server/server.js";
import type { AuthInfo } from "../../dispatcher.js";
import { requestMetadataHeaders } from "../headers.js";
import { serve } from "../node/node.js";
import type { Authenticate } from "./authenticate.js";
import type { ProtectedResourceMetadata } from "./resource-metadata.js";
import { createHttpHandler } from "./server-handler.js";

const ALICE: AuthInfo = { token: "a", clientId: "app", issuer: "https://as.example", subject: "alice" };
const BOB: AuthInfo = { token: "b", clientId: "app", issuer: "https://as.example", subject: "bob" };
const METADATA: ProtectedResourceMetadata = {
  resource: "http://localhost/mcp",
  authorization_servers: ["https://as.example"],
};

/** A hook that knows two tokens, and answers 401 to anything else. */
const byToken: Authenticate = (request) => {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
  if (token === "a") return ALICE;
  if (token === "b") return BOB;
  return new Response("no", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
};

/** A server whose `whoami` tool answers with the request's principal, recording every context. */
function whoamiServer() {
  const seen: RequestContext[] = [];
  const server = new Server("auth-fixture", {
    onCallTool: (ctx) => {
      seen.push(ctx);
      return { content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] };
    },
    onListTools: () => ({ tools: [] }),
  });
  return { server, seen };
}

function post(message: JSONRPCRequest | string, headers: Record<string, string> = {}): Request {
  const meta = typeof message === "string" ? {} : requestMetadataHeaders(message);
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...meta, ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

describe("the authenticate hook", () => {
  it("runs before the body is read: its Response answers even a request whose body is not JSON", async () => {
    const { server } = whoamiServer();
    const logger = recordingLogger();
    const handler = createHttpHandler(server, { authenticate: byToken, logger });
    const refused = await handler(post("{not json", { Authorization: "Bearer nope" }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: "Streamable HTTP refused a request: the authenticate hook answered HTTP 401",
        fields: { status: 401, reason: "the authenticate hook answered HTTP 401" },
      },
    ]);
  });

  it("hands its AuthInfo to the handler as ctx.auth on the 2026 path", async () => {
    const { server, seen } = whoamiServer();
    const handler = createHttpHandler(server, { authenticate: byToken });
    const answered = await handler(
      post(rpc("tools/call", { name: "whoami" }), { Authorization: "Bearer a" }),
    );
    expect(answered.status).toBe(200);
    expect(seen[0]?.auth).toBe(ALICE);
  });

  it("serves a request without an identity when it returns undefined", async () => {
    const { server, seen } = whoamiServer();
    const handler = createHttpHandler(server, { authenticate: () => undefined });
    expect((await handler(post(rpc("tools/call", { name: "whoami" })))).status).toBe(200);
    expect(seen[0]?.auth).toBeUndefined();
  });

  it("answers 500 with -32603 when it throws or returns something else, the cause to the logger", async () => {
    const { server } = whoamiServer();
    for (const hook of [
      () => {
        throw new Error("boom");
      },
      () => ({ subject: "no token" }) as unknown as AuthInfo,
    ]) {
      const errors: unknown[] = [];
      const handler = createHttpHandler(server, {
        authenticate: hook,
        logger: { error: (_message, fields) => errors.push(fields?.error) },
      });
      const answered = await handler(post(rpc("tools/list")));
      expect(answered.status).toBe(500);
      expect(((await answered.json()) as { error: { code: number } }).error.code).toBe(-32603);
      expect(errors).toHaveLength(1);
    }
  });

  it("is checked when the handler is built", () => {
    const { server } = whoamiServer();
    expect(() => createHttpHandler(server, { authenticate: "yes" as never })).toThrow(TypeError);
    const badChallenge = Object.assign(() => undefined, { challenge: 1 }) as never;
    expect(() => createHttpHandler(server, { authenticate: badChallenge })).toThrow(TypeError);
    expect(() => createHttpHandler(server, { protectedResourceMetadata: { resource: "/mcp" } })).toThrow(
      TypeError,
    );
  });

  it("binds a handshake-era session to the identity that opened it, answering any other 404", async () => {
    const { server } = whoamiServer();
    const handler = createHttpHandler(server, {
      authenticate: (request) =>
        request.headers.get("authorization") !== null ? byToken(request) : undefined,
    });
    const initialize: JSONRPCRequest = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    const openedByAlice = await handler(post(initialize, { Authorization: "Bearer a" }));
    const aliceSession = openedByAlice.headers.get("mcp-session-id") as string;
    const openedAnonymously = await handler(post(initialize));
    const anonymousSession = openedAnonymously.headers.get("mcp-session-id") as string;
    const list: JSONRPCRequest = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const on = (session: string, token?: string) => ({
      "Mcp-Session-Id": session,
      "MCP-Protocol-Version": "2025-11-25",
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    });

    expect((await handler(post(list, on(aliceSession, "a")))).status).toBe(200);
    expect((await handler(post(list, on(aliceSession, "b")))).status).toBe(404);
    expect((await handler(post(list, on(aliceSession)))).status).toBe(404);
    expect((await handler(post(list, on(anonymousSession)))).status).toBe(200);
    expect((await handler(post(list, on(anonymousSession, "a")))).status).toBe(404);
    const stream = await handler(
      new Request("http://localhost/mcp", {
        method: "GET",
        headers: { Accept: "text/event-stream", ...on(aliceSession, "b") },
      }),
    );
    expect(stream.status).toBe(404);
    const ended = await handler(
      new Request("http://localhost/mcp", { method: "DELETE", headers: on(aliceSession, "b") }),
    );
    expect(ended.status).toBe(404);
    expect((await handler(post(list, on(aliceSession, "a")))).status).toBe(200);
    handler.close();
  });
});

describe("the protected resource metadata document", () => {
  it("is served by the web handler at the path-suffixed and root well-known paths, to any origin, before auth", async () => {
    const { server } = whoamiServer();
    const handler = createHttpHandler(server, { authenticate: byToken, protectedResourceMetadata: METADATA });
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const answered = await handler(
        new Request(`http://localhost${path}`, { headers: { Origin: "https://evil.example" } }),
      );
      expect(answered.status).toBe(200);
      expect(answered.headers.get("access-control-allow-origin")).toBe("*");
      expect(await answered.json()).toStrictEqual(METADATA);
    }
    const other = await handler(new Request("http://localhost/.well-known/oauth-protected-resource/other"));
    expect(other.status).toBe(404);
    const posted = await handler(
      new Request("http://localhost/.well-known/oauth-protected-resource/mcp", { method: "POST" }),
    );
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, OPTIONS");
  });

  it("is not served without the option: the well-known paths answer 404", async () => {
    const { server } = whoamiServer();
    const handler = createHttpHandler(server);
    expect(
      (await handler(new Request("http://localhost/.well-known/oauth-protected-resource/mcp"))).status,
    ).toBe(404);
  });

  it("is routed by serve() beside its MCP path, with a CORS preflight", async () => {
    const { server } = whoamiServer();
    const handle = await serve(server, { authenticate: byToken, protectedResourceMetadata: METADATA });
    onTestFinished(() => handle.close());
    const base = `http://127.0.0.1:${handle.port}`;
    const document = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(document.status).toBe(200);
    expect(await document.json()).toStrictEqual(METADATA);
    const preflight = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);

    const message = rpc("tools/call", { name: "whoami", _meta: requestMeta() });
    const refused = await postOverHttp(handle.url, message);
    expect(refused.status).toBe(401);
    expect(refused.text).toBe("no");
    const answered = await postOverHttp(handle.url, message, "b");
    expect(answered.body.result.content).toEqual([{ type: "text", text: "bob" }]);
  });
});
