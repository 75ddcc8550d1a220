/**
 * A protected MCP server end to end: `oidc-provider` on 127.0.0.1 issues real access tokens (JWTs
 * signed with its keys, verified through its JWKS fetched over HTTP; opaque ones through its
 * introspection endpoint) for two users of one client, and the server behind `bearerAuth` answers
 * over real HTTP: the 401 challenge and the metadata it points to, audience and scope refusals,
 * a multi-round flow bound to its user, sessions bound to theirs, and signing-key rotation.
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { silentLogger } from "../../packages/tsmcp/src/protocol/index.js";
import type { JSONRPCRequest } from "../../packages/tsmcp/src/protocol/jsonrpc.js";
import {
  bearerAuth,
  elicitationRequest,
  inputRequired,
  introspectionVerifier,
  jwtVerifier,
  MCPServer,
  protectedResourceMetadata,
  RequestStateSecurity,
  readElicitation,
  type TokenVerifier,
} from "../../packages/tsmcp/src/server/index.js";
import { resourceMetadataUrl } from "../../packages/tsmcp/src/transport/index.js";
import {
  RESOURCE_CLIENT_ID,
  RESOURCE_CLIENT_SECRET,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../helpers/authorization-server.js";
import { post } from "../helpers/mcp-post.js";
import { requestMeta } from "../helpers/meta.js";

const READ = "notes:read";
const WRITE = "notes:write";
const FROZEN = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};
const CONFIRM = elicitationRequest({
  message: "Delete this note?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
});

/** The notes server: `whoami`, a two-round `delete-note` that needs `notes:write`, and `archive` that needs `notes:admin`. */
function notesServer(
  options: { hideUnauthorized?: boolean; requestStateSecurity?: RequestStateSecurity } = {},
): MCPServer {
  const mcp = new MCPServer("notes", { legacyInputRequired: "fulfil", logger: silentLogger, ...options });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.clientId}`);
  mcp.tool(
    "delete-note",
    { inputSchema: z.object({ id: z.string() }), requiredScopes: [WRITE] },
    ({ id }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.confirm, z.object({ ok: z.boolean() }));
      if (answer.status !== "accepted")
        return inputRequired({ inputRequests: { confirm: CONFIRM }, requestState: `delete:${id}` });
      return `${answer.content.ok ? "deleted" : "kept"} ${id} for ${ctx.auth?.subject} (state ${ctx.requestState})`;
    },
  );
  mcp.tool("archive", { requiredScopes: ["notes:admin"] }, () => "archived");
  mcp.prompt("audit", { requiredScopes: ["notes:admin"] }, () => "audit everything");
  return mcp;
}

interface Protected {
  url: string;
  close(): Promise<void>;
}

/** Serves `mcp` on 127.0.0.1 behind bearer auth with `verifier`, publishing its metadata. */
async function serveProtected(
  mcp: MCPServer,
  as: TestAuthorizationServer,
  verifierFor: (resource: string) => TokenVerifier,
): Promise<Protected> {
  let listener: ((req: never, res: never) => void) | undefined;
  const server: NodeServer = createServer((req, res) =>
    (listener as (a: typeof req, b: typeof res) => void)(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const handler = mcp.httpHandler({
    authenticate: bearerAuth({
      verifier: verifierFor(url),
      requiredScopes: [READ],
      resourceMetadataUrl: resourceMetadataUrl(url),
    }),
    protectedResourceMetadata: protectedResourceMetadata({
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: [READ, WRITE],
    }),
  });
  listener = getRequestListener(handler) as typeof listener;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let nextId = 1;
function call(method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta({ elicitation: { form: {} } }) },
  };
}

let as: TestAuthorizationServer;
let notes: Protected;
let alice: string;
let bob: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  notes = await serveProtected(notesServer(), as, (resource) =>
    jwtVerifier({ issuer: as.issuer, audience: resource, jwksUri: as.jwksUri }),
  );
  alice = await as.issue("alice", notes.url, [READ, WRITE]);
  bob = await as.issue("bob", notes.url, [READ, WRITE]);
});

afterAll(async () => {
  await notes?.close();
  await as?.close();
});

describe("a server behind bearerAuth, with tokens from a real authorization server", () => {
  it("answers a request without a token 401, pointing at metadata that names the authorization server", async () => {
    const refused = await post(notes.url, call("tools/list"));
    expect(refused.status).toBe(401);
    const metadataUrl = notes.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    expect(refused.challenge).toBe(`Bearer scope="${READ}", resource_metadata="${metadataUrl}"`);

    const metadata = await fetch(metadataUrl, { headers: { Origin: "https://elsewhere.example" } });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("access-control-allow-origin")).toBe("*");
    expect(await metadata.json()).toStrictEqual({
      resource: notes.url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: [READ, WRITE],
    });
    const root = await fetch(notes.url.replace("/mcp", "/.well-known/oauth-protected-resource"));
    expect(((await root.json()) as { resource: string }).resource).toBe(notes.url);
    const preflight = await fetch(metadataUrl, {
      method: "OPTIONS",
      headers: {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
  });

  it("refuses a token issued for another resource, and a token that is not one, with invalid_token", async () => {
    const elsewhere = await as.issue("alice", "http://127.0.0.1:1/other", [READ, WRITE]);
    for (const token of [elsewhere, "not-a-jwt", `${alice.slice(0, -4)}AAAA`]) {
      const refused = await post(notes.url, call("tools/list"), token);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
      expect(refused.challenge).toContain("resource_metadata=");
      expect(refused.body).toMatchObject({ error: "invalid_token" });
    }
  });

  it("answers a token without the server's required scope 403 insufficient_scope, for step-up", async () => {
    const profileOnly = await as.issue("alice", notes.url, ["profile"]);
    const refused = await post(notes.url, call("tools/list"), profileOnly);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a required scope", scope="${READ}", resource_metadata="${notes.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")}"`,
    );
  });

  it("hands the verified identity to handlers as ctx.auth", async () => {
    const answered = await post(notes.url, call("tools/call", { name: "whoami" }), alice);
    expect(answered.status).toBe(200);
    expect(answered.body.result.content).toEqual([{ type: "text", text: "alice via notes-app" }]);
  });

  it("refuses a tool whose scope the token lacks, 403 with every scope needed in one challenge", async () => {
    const readOnly = await as.issue("alice", notes.url, [READ]);
    const refused = await post(
      notes.url,
      call("tools/call", { name: "delete-note", arguments: { id: "n1" } }),
      readOnly,
    );
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(
      /^Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="/,
    );
    expect(refused.body.error).toStrictEqual({
      code: -32600,
      message: "Forbidden: insufficient scope",
      data: { reason: "insufficient_scope", requiredScopes: [WRITE] },
    });
    const prompt = await post(notes.url, call("prompts/get", { name: "audit" }), alice);
    expect(prompt.status).toBe(403);
    expect(prompt.challenge).toContain('scope="notes:read notes:admin"');
    // Listed by default; hidden with hideUnauthorized (below).
    const listed = await post(notes.url, call("tools/list"), readOnly);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "whoami",
      "delete-note",
      "archive",
    ]);
  });

  it("lets Alice complete a multi-round flow, and refuses Bob presenting her requestState", async () => {
    const first = await post(
      notes.url,
      call("tools/call", { name: "delete-note", arguments: { id: "n1" } }),
      alice,
    );
    expect(first.body.result.resultType).toBe("input_required");
    const requestState = first.body.result.requestState as string;
    expect(requestState).toMatch(/^v1\./);
    const retry = {
      name: "delete-note",
      arguments: { id: "n1" },
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState,
    };

    const stolen = await post(notes.url, call("tools/call", retry), bob);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toStrictEqual(FROZEN);

    const done = await post(notes.url, call("tools/call", retry), alice);
    expect(done.body.result.content).toEqual([
      { type: "text", text: "deleted n1 for alice (state delete:n1)" },
    ]);
  });

  it("binds a handshake-era session to the user who opened it: Bob's requests on Alice's session get 404", async () => {
    const initialize = {
      jsonrpc: "2.0" as const,
      id: nextId++,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "legacy", version: "1" },
      },
    };
    const opened = await post(notes.url, initialize, alice);
    expect(opened.status).toBe(200);
    const sessionId = opened.sessionId as string;
    expect(sessionId).toBeTruthy();
    const onSession = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
    const list = { jsonrpc: "2.0" as const, id: nextId++, method: "tools/list", params: {} };

    expect((await post(notes.url, list, alice, onSession)).status).toBe(200);
    const hijack = await post(notes.url, { ...list, id: nextId++ }, bob, onSession);
    expect(hijack.status).toBe(404);
    expect(hijack.body.error.message).toBe("Session not found");
    const anonymous = await post(notes.url, { ...list, id: nextId++ }, undefined, onSession);
    expect(anonymous.status).toBe(401);
    const who = await post(
      notes.url,
      { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "whoami" } },
      alice,
      onSession,
    );
    expect(who.body.result.content).toEqual([{ type: "text", text: "alice via notes-app" }]);
  });

  it("hides what the token may not use from lists with hideUnauthorized", async () => {
    const hidden = await serveProtected(notesServer({ hideUnauthorized: true }), as, (resource) =>
      jwtVerifier({ issuer: as.issuer, audience: resource, jwksUri: as.jwksUri }),
    );
    try {
      const readOnly = await as.issue("alice", hidden.url, [READ]);
      const tools = await post(hidden.url, call("tools/list"), readOnly);
      expect(tools.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["whoami"]);
      const prompts = await post(hidden.url, call("prompts/list"), readOnly);
      expect(prompts.body.result.prompts).toEqual([]);
    } finally {
      await hidden.close();
    }
  });
});

describe("signing-key rotation at the authorization server", () => {
  it("is picked up: a token signed with a new key refetches the JWKS once the cooldown allows, not before", async () => {
    const rotating = await startAuthorizationServer();
    const eager = await serveProtected(notesServer(), rotating, (resource) =>
      jwtVerifier({
        issuer: rotating.issuer,
        audience: resource,
        jwksUri: rotating.jwksUri,
        jwksCooldownMs: 0,
      }),
    );
    const patient = await serveProtected(notesServer(), rotating, (resource) =>
      jwtVerifier({ issuer: rotating.issuer, audience: resource, jwksUri: rotating.jwksUri }),
    );
    try {
      const before = await rotating.issue("alice", eager.url, [READ]);
      const patientBefore = await rotating.issue("alice", patient.url, [READ]);
      expect((await post(eager.url, call("tools/list"), before)).status).toBe(200);
      expect((await post(patient.url, call("tools/list"), patientBefore)).status).toBe(200);
      expect(rotating.jwksFetches).toBe(2);

      await rotating.rotateKeys();
      const after = await rotating.issue("alice", eager.url, [READ]);
      const patientAfter = await rotating.issue("alice", patient.url, [READ]);
      // Within the default 30 s cooldown an unknown kid does not trigger a fetch: refused.
      expect((await post(patient.url, call("tools/list"), patientAfter)).status).toBe(401);
      expect(rotating.jwksFetches).toBe(2);
      // With no cooldown the unknown kid refetches the JWKS, which now has both keys.
      expect((await post(eager.url, call("tools/list"), after)).status).toBe(200);
      expect(rotating.jwksFetches).toBe(3);
      expect((await post(eager.url, call("tools/list"), before)).status).toBe(200);
      expect(rotating.jwksFetches).toBe(3);
    } finally {
      await Promise.all([eager.close(), patient.close()]);
      await rotating.close();
    }
  });
});

describe("the introspection verifier against the same authorization server", () => {
  it("accepts an active opaque token for this resource, caches the answer, and refuses one for another", async () => {
    const introspected = await serveProtected(notesServer(), as, (resource) =>
      introspectionVerifier({
        endpoint: `${as.issuer}/token/introspection`,
        clientId: RESOURCE_CLIENT_ID,
        clientSecret: RESOURCE_CLIENT_SECRET,
        audience: resource,
        issuer: as.issuer,
      }),
    );
    try {
      const opaque = await as.issue("bob", introspected.url, [READ], "opaque");
      expect(opaque.split(".")).toHaveLength(1);
      const seen = as.introspections;
      const who = await post(introspected.url, call("tools/call", { name: "whoami" }), opaque);
      expect(who.body.result.content).toEqual([{ type: "text", text: "bob via notes-app" }]);
      expect((await post(introspected.url, call("tools/list"), opaque)).status).toBe(200);
      expect(as.introspections).toBe(seen + 1);

      const elsewhere = await as.issue("bob", "http://127.0.0.1:1/other", [READ], "opaque");
      const refused = await post(introspected.url, call("tools/list"), elsewhere);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
    } finally {
      await introspected.close();
    }
  });
});

describe("principal binding of requestState", () => {
  /** Alice starts `delete-note`; Bob presents her requestState. Resolves with Bob's answer. */
  async function bobContinuesAlice(
    server: Protected,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const mine = await as.issue("alice", server.url, [READ, WRITE]);
    const theirs = await as.issue("bob", server.url, [READ, WRITE]);
    const first = await post(
      server.url,
      call("tools/call", { name: "delete-note", arguments: { id: "n2" } }),
      mine,
    );
    const retry = {
      name: "delete-note",
      arguments: { id: "n2" },
      inputResponses: { confirm: { action: "accept", content: { ok: false } } },
      requestState: first.body.result.requestState,
    };
    return post(server.url, call("tools/call", retry), theirs);
  }

  it("degrades to the client alone when the verifier supplies no subject (documented)", async () => {
    const server = await serveProtected(notesServer(), as, (resource) => {
      const jwt = jwtVerifier({ issuer: as.issuer, audience: resource, jwksUri: as.jwksUri });
      return { verify: async (token) => ({ ...(await jwt.verify(token)), subject: undefined }) };
    });
    try {
      const continued = await bobContinuesAlice(server);
      expect(continued.status).toBe(200);
      expect(continued.body.result).toMatchObject({
        content: [{ type: "text", text: "kept n2 for undefined (state delete:n2)" }],
      });
    } finally {
      await server.close();
    }
  });

  it("follows bindPrincipal when the policy sets one, over the token's identity", async () => {
    const requestStateSecurity = new RequestStateSecurity({
      keys: [Buffer.alloc(32, 7)],
      bindPrincipal: (ctx) => String(ctx.auth?.clientId),
    });
    const server = await serveProtected(notesServer({ requestStateSecurity }), as, (resource) =>
      jwtVerifier({ issuer: as.issuer, audience: resource, jwksUri: as.jwksUri }),
    );
    try {
      expect((await bobContinuesAlice(server)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
