/**
 * Reading a resource server's `WWW-Authenticate` challenge. Spec: RFC 6750 §3, RFC 9728 §5.1,
 * basic/authorization §Scope Challenge Handling.
 */
import { describe, expect, it } from "vitest";
import { authChallengeOf } from "./challenge.js";

describe("authChallengeOf", () => {
  it("reads error, scope and resource_metadata of a Bearer challenge, quoted or not", async () => {
    expect(
      await authChallengeOf(
        403,
        'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({
      scheme: "bearer",
      error: "insufficient_scope",
      scope: "files:read files:write",
      resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
    });
    expect(await authChallengeOf(401, "Bearer error=invalid_token")).toEqual({
      scheme: "bearer",
      error: "invalid_token",
    });
  });

  it("takes the Bearer challenge among several, else a DPoP one", async () => {
    expect(await authChallengeOf(401, 'Basic realm="x", Bearer scope="a"')).toEqual({
      scheme: "bearer",
      scope: "a",
    });
    expect(await authChallengeOf(401, 'DPoP algs="ES256", error="use_dpop_nonce"')).toEqual({
      scheme: "dpop",
      error: "use_dpop_nonce",
    });
  });

  it("is undefined without a header, for another scheme only, and for a header it cannot parse", async () => {
    expect(await authChallengeOf(401, null)).toBeUndefined();
    expect(await authChallengeOf(401, "")).toBeUndefined();
    expect(await authChallengeOf(401, 'Basic realm="x"')).toBeUndefined();
    expect(await authChallengeOf(401, '"not a challenge')).toBeUndefined();
  });

  it("reads error_description", async () => {
    expect(
      await authChallengeOf(
        401,
        'Bearer error="invalid_token", error_description="The access token expired, \\"sign in\\" again"',
      ),
    ).toEqual({
      scheme: "bearer",
      error: "invalid_token",
      errorDescription: 'The access token expired, "sign in" again',
    });
  });

  it("drops an empty scope", async () => {
    expect(await authChallengeOf(401, 'Bearer scope=""')).toEqual({ scheme: "bearer" });
  });
});
