/**
 * Auth in the guides of `docs/`: a server that checks bearer tokens with its own `TokenVerifier`
 * (a fixed table of API tokens), served by Express with the protected resource metadata routes
 * beside the MCP route, and a client that sends a static bearer token.
 * `examples/docs/docs.test.ts` runs both on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Client } from "tsmcp/client";
import { mcpExpress } from "tsmcp/node";
import {
  bearerAuth,
  InvalidTokenError,
  MCPServer,
  protectedResourceMetadata,
  type TokenVerifier,
} from "tsmcp/server";
import {
  type AuthInfo,
  type HttpClientAuth,
  PROTECTED_RESOURCE_METADATA_PATH,
  resourceMetadataUrl,
} from "tsmcp/transport";
import * as z from "zod";

/** A verifier over a fixed table of tokens: token -> who it speaks for and its scopes. */
export function staticTokens(table: Record<string, { subject: string; scopes: string[] }>): TokenVerifier {
  return {
    async verify(token: string): Promise<AuthInfo> {
      const entry = table[token];
      if (entry === undefined) throw new InvalidTokenError("unknown token");
      return { token, clientId: "api-token", issuer: "local", subject: entry.subject, scopes: entry.scopes };
    },
  };
}

/** The notes server: `whoami` for any token, `add-note` only with `notes:write`. */
export function createNotesServer(): MCPServer {
  const mcp = new MCPServer("notes", { version: "1.0.0" });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject} (${ctx.auth?.scopes?.join(" ")})`);
  mcp.tool(
    "add-note",
    { inputSchema: z.object({ text: z.string() }), requiredScopes: ["notes:write"] },
    ({ text }, ctx) => `Added "${text}" for ${ctx.auth?.subject}`,
  );
  return mcp;
}

/** Serves the notes server with Express on 127.0.0.1 (a free port); resolves with its URL and server. */
export async function serveNotesWithExpress(
  tokens: Record<string, { subject: string; scopes: string[] }>,
): Promise<{ url: URL; server: Server }> {
  // Listen first (to learn the port the metadata names), then hand requests to the app.
  const listener = createServer().listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => listener.once("listening", resolve));
  const { port } = listener.address() as AddressInfo;
  const resource = `http://127.0.0.1:${port}/mcp`; // the URL clients use
  const handler = mcpExpress(createNotesServer(), {
    authenticate: bearerAuth({
      verifier: staticTokens(tokens),
      resourceMetadataUrl: resourceMetadataUrl(resource),
    }),
    protectedResourceMetadata: protectedResourceMetadata({
      resource,
      authorizationServers: ["https://auth.example.com"],
      scopesSupported: ["notes:read", "notes:write"],
    }),
  });
  const app = express();
  app.all("/mcp", handler);
  // The metadata document, at the well-known path and its path-suffixed form: the same handler.
  app.get(PROTECTED_RESOURCE_METADATA_PATH, handler);
  app.get(`${PROTECTED_RESOURCE_METADATA_PATH}/mcp`, handler);
  listener.on("request", app);
  return { url: new URL(resource), server: listener };
}

/** An `auth` that sends one fixed bearer token and gives up on a challenge. */
export function staticBearer(token: string): HttpClientAuth {
  return {
    headers: () => ({ authorization: `Bearer ${token}` }),
    onChallenge: () => false, // a refused token stays refused: the request fails with the 401/403
  };
}

/** Calls `whoami` with a static token. */
export async function whoami(url: URL, token: string): Promise<string> {
  const client = await Client.connect(url, { auth: staticBearer(token) });
  try {
    const result = await client.callTool("whoami");
    const first = result.content[0];
    return first?.type === "text" ? first.text : "";
  } finally {
    await client.close();
  }
}
