/**
 * A refused access token, over real HTTP on 127.0.0.1, from both ends: a server behind
 * `bearerAuth` whose verifier refuses a stale token, and a `Client` sending it. The client's error
 * names the challenge's `error` and `error_description` (RFC 6750 §3); the server logs each refusal
 * with its reason, through its own logger, and never the token. Spec: basic/authorization §Token
 * Handling.
 */
import { type HttpServerHandle, serve } from "tsmcp/node";
import { bearerAuth, InvalidTokenError, MCPServer, type TokenVerifier } from "tsmcp/server";
import {
  AuthorizationRefusedError,
  type HttpClientAuth,
  HttpClientTransport,
  TransportError,
} from "tsmcp/transport";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { recordingLogger } from "../../packages/tsmcp/src/server/mcp/mcp-test-fixtures.js";

const GOOD = "good-token-5b8e1f";
const STALE = "stale-token-91c2aa";

/** Accepts {@link GOOD}; refuses any other token as revoked. */
const verifier: TokenVerifier = {
  async verify(token) {
    if (token !== GOOD) throw new InvalidTokenError("the token was revoked at the authorization server");
    return { token, clientId: "cli", subject: "ada", scopes: ["notes:read"] };
  },
};

/** Sends `Bearer <token>` on every request and never re-authorizes. */
function staticToken(token: string): HttpClientAuth {
  return { headers: () => ({ authorization: `Bearer ${token}` }), onChallenge: () => false };
}

let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

/** The notes server behind bearer auth, logging to a recording logger. */
async function protectedServer(requiredScopes: string[] = []) {
  const logger = recordingLogger();
  const mcp = new MCPServer("notes", { logger });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject}`);
  handle = await serve(mcp, { port: 0, authenticate: bearerAuth({ verifier, requiredScopes }) });
  return { url: handle.url, logger };
}

/** The error `run` rejects with. */
async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("a refused access token", () => {
  it("fails the client with an error naming invalid_token and the server's description", async () => {
    const { url } = await protectedServer();
    const error = await rejection(() => Client.connect(url, { auth: staticToken(STALE) }));
    expect(error).toBeInstanceOf(AuthorizationRefusedError);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({
      httpStatus: 401,
      challenge: {
        scheme: "bearer",
        error: "invalid_token",
        errorDescription: "The access token is invalid or expired",
      },
    });
    expect((error as Error).message).toContain("invalid_token");
    expect((error as Error).message).toContain("The access token is invalid or expired");
  });

  it("carries the challenge on the transport's own error too", async () => {
    const { url } = await protectedServer();
    const transport = new HttpClientTransport(url, { auth: staticToken(STALE) });
    const error = await rejection(() =>
      transport.request({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }),
    );
    await transport.close();
    expect(error).toMatchObject({ httpStatus: 401, challenge: { error: "invalid_token" } });
  });

  it("is logged by the server once, with the verifier's reason and without the token", async () => {
    const { url, logger } = await protectedServer();
    const transport = new HttpClientTransport(url, { auth: staticToken(STALE) });
    await rejection(() => transport.request({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }));
    await transport.close();
    const refusals = logger.records.filter((record) => record.message.startsWith("Streamable HTTP refused"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      level: "warn",
      fields: {
        status: 401,
        error: "invalid_token",
        reason: "the token was revoked at the authorization server",
      },
    });
    expect(JSON.stringify(logger.records)).not.toContain(STALE);
  });

  it("logs a token without a required scope with the scopes it lacks", async () => {
    const { url, logger } = await protectedServer(["notes:write"]);
    const transport = new HttpClientTransport(url, { auth: staticToken(GOOD) });
    const error = await rejection(() =>
      transport.request({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }),
    );
    await transport.close();
    expect(error).toMatchObject({ httpStatus: 403, challenge: { error: "insufficient_scope" } });
    const refusals = logger.records.filter((record) => record.message.startsWith("Streamable HTTP refused"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.fields).toMatchObject({ status: 403, error: "insufficient_scope" });
    expect(String(refusals[0]?.fields?.reason)).toContain("notes:write");
    expect(JSON.stringify(logger.records)).not.toContain(GOOD);
  });
});
