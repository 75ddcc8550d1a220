/**
 * The authorization code grant refuses an `authorization_endpoint` it would hand to a browser or
 * the platform's opener unless it is https: (or http: to a loopback host): metadata is chosen by
 * the server, and an opener acts on `file:`, `smb:` or an OS handler's scheme. Spec:
 * basic/authorization/security-considerations §Communication Security.
 */
import type * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { AuthorizationCodeGrant } from "./authorization-code.js";
import type { GrantContext } from "./grant.js";
import { requestOptions } from "./http.js";

/** Runs the grant against metadata naming `endpoint`; resolves the URLs the user's step got, and the error. */
async function attempt(endpoint: string): Promise<{ opened: string[]; error: unknown }> {
  const opened: string[] = [];
  const grant = new AuthorizationCodeGrant({
    redirectUri: "http://127.0.0.1:9/callback",
    redirect: (url) => {
      opened.push(url.href);
      throw new Error("stop here");
    },
  });
  const http = { fetch, signal: new AbortController().signal };
  const context: GrantContext = {
    as: {
      issuer: "https://as.example",
      authorization_endpoint: endpoint,
      code_challenge_methods_supported: ["S256"],
    },
    client: { client_id: "c" },
    clientAuth: (() => {}) as oauth.ClientAuth,
    resource: "https://mcp.example/mcp",
    scope: undefined,
    http,
    requestOptions: (url) => requestOptions(http, url),
  };
  const error = await grant.obtain(context).catch((caught: unknown) => caught);
  return { opened, error };
}

describe("AuthorizationCodeGrant", () => {
  it.each([
    ["file:///etc/passwd", '"file:"'],
    ["smb://attacker.example/share", '"smb:"'],
    ["ms-msdt:/id", '"ms-msdt:"'],
    ["javascript:alert(1)", '"javascript:"'],
    ["http://as.example/authorize", "plain http:"],
  ])(
    "refuses the authorization_endpoint %s before the user's step, naming its scheme",
    async (endpoint, named) => {
      const { opened, error } = await attempt(endpoint);
      expect(opened).toEqual([]);
      expect(error).toMatchObject({ name: "OAuthError", reason: "authorization" });
      expect((error as Error).message).toContain("authorization_endpoint");
      expect((error as Error).message).toContain(named);
    },
  );

  it.each([
    "https://as.example/authorize",
    "http://127.0.0.1:8080/authorize",
    "http://localhost:8080/authorize",
    "http://[::1]:8080/authorize",
  ])("hands https: and loopback http: to the user's step: %s", async (endpoint) => {
    const { opened, error } = await attempt(endpoint);
    expect(opened).toHaveLength(1);
    expect(opened[0]?.startsWith(endpoint)).toBe(true);
    expect((error as Error).message).toContain("stop here");
  });
});
