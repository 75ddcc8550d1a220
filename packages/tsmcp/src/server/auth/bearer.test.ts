/**
 * `bearerAuth` on its own: how it reads the `Authorization` header, the challenges it answers, and
 * what it refuses to be built with. The end-to-end behaviour against a real authorization server
 * is in test/e2e/auth.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { bearerAuth } from "./bearer.js";
import { InvalidTokenError, type TokenVerifier } from "./verifier.js";

const METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

/** A verifier over a fixed table of tokens. */
function tableVerifier(table: Record<string, AuthInfo | Error>): TokenVerifier {
  return {
    async verify(token) {
      const entry = table[token];
      if (entry === undefined) throw new InvalidTokenError("unknown token");
      if (entry instanceof Error) throw entry;
      return entry;
    },
  };
}

const verifier = tableVerifier({
  good: { token: "good", clientId: "app", subject: "alice", scopes: ["notes:read"] },
  expired: { token: "expired", clientId: "app", subject: "alice", scopes: ["notes:read"], expiresAtMs: 1 },
  broken: new Error("authorization server unreachable"),
});

function request(authorization?: string) {
  const headers = new Headers(authorization === undefined ? {} : { Authorization: authorization });
  return { method: "POST", url: "https://mcp.example.com/mcp", headers };
}

describe("bearerAuth", () => {
  const hook = bearerAuth({ verifier, requiredScopes: ["notes:read"], resourceMetadataUrl: METADATA });

  it("hands back the verifier's AuthInfo for a good token, whatever the scheme's case", async () => {
    expect(await hook(request("Bearer good"))).toMatchObject({ subject: "alice" });
    expect(await hook(request("bearer good"))).toMatchObject({ subject: "alice" });
  });

  it("challenges a request without a bearer token with 401, the metadata URL and the scopes, and no error code", async () => {
    for (const header of [undefined, "Basic dXNlcjpwYXNz", "Bearer", "Bearer two tokens"]) {
      const answer = (await hook(request(header))) as Response;
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer scope="notes:read", resource_metadata="${METADATA}"`,
      );
      expect(answer.headers.get("access-control-expose-headers")).toBe("WWW-Authenticate");
    }
  });

  it("answers an unknown or expired token 401 invalid_token, and never says why", async () => {
    for (const token of ["unknown", "expired"]) {
      const answer = (await hook(request(`Bearer ${token}`))) as Response;
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", error_description="The access token is invalid or expired", scope="notes:read", resource_metadata="${METADATA}"`,
      );
      expect(await answer.json()).toStrictEqual({
        error: "invalid_token",
        error_description: "The access token is invalid or expired",
      });
    }
  });

  it("lets a verifier failure that is not about the token propagate (answered 500 by the handler)", async () => {
    await expect(hook(request("Bearer broken"))).rejects.toThrow("authorization server unreachable");
  });

  it("answers a token without a required scope 403 insufficient_scope, and builds step-up challenges", async () => {
    const strict = bearerAuth({ verifier, requiredScopes: ["notes:read", "notes:write"] });
    const answer = (await strict(request("Bearer good"))) as Response;
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", error_description="The access token lacks a required scope", scope="notes:read notes:write"',
    );
    expect(hook.challenge?.(["notes:admin", "notes:read"])).toBe(
      `Bearer error="insufficient_scope", scope="notes:read notes:admin", resource_metadata="${METADATA}"`,
    );
  });

  it("omits scope and resource_metadata when it has none to name", async () => {
    const bare = bearerAuth({ verifier });
    expect(((await bare(request())) as Response).headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses bad options when it is built", () => {
    expect(() => bearerAuth({} as never)).toThrow(TypeError);
    expect(() => bearerAuth({ verifier: { verify: 1 } as never })).toThrow(TypeError);
    expect(() => bearerAuth({ verifier, requiredScopes: ["two words"] })).toThrow(TypeError);
    expect(() => bearerAuth({ verifier, requiredScopes: "notes:read" as never })).toThrow(TypeError);
    expect(() => bearerAuth({ verifier, resourceMetadataUrl: "/relative" })).toThrow(TypeError);
  });
});
