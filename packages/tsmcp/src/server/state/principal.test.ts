import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { createRequestContext, type RequestContext } from "../context.js";
import { authenticatedPrincipal, principalClaim, principalClaimMatches } from "./principal.js";

function contextWith(auth?: AuthInfo): RequestContext {
  return createRequestContext("tools/call", 1, requestMeta() as never, {
    signal: new AbortController().signal,
    ...(auth === undefined ? {} : { auth }),
  });
}

describe("authenticatedPrincipal", () => {
  it("is undefined without an auth context", () => {
    expect(authenticatedPrincipal(contextWith())).toBeUndefined();
  });

  it("is the token's client, issuer and subject identity as compact JSON", () => {
    expect(authenticatedPrincipal(contextWith({ token: "t", clientId: "client-123" }))).toBe(
      '["client-123",null,null]',
    );
    expect(
      authenticatedPrincipal(contextWith({ token: "t", clientId: "client-123", subject: "alice" })),
    ).toBe('["client-123",null,"alice"]');
    expect(
      authenticatedPrincipal(
        contextWith({ token: "t", clientId: "client-123", issuer: "https://as.example", subject: "alice" }),
      ),
    ).toBe('["client-123","https://as.example","alice"]');
  });

  it("falls back to the token itself when the auth layer names no client, issuer or subject", () => {
    expect(authenticatedPrincipal(contextWith({ token: "t", scopes: ["a"] }))).toBe('[null,null,null,"t"]');
    const alice = authenticatedPrincipal(contextWith({ token: "alice-token" }));
    const bob = authenticatedPrincipal(contextWith({ token: "bob-token" }));
    expect(alice).not.toBe(bob);
    // A client alone (no subject) stays bound to the client, whatever the token.
    expect(authenticatedPrincipal(contextWith({ token: "one", clientId: "c" }))).toBe(
      authenticatedPrincipal(contextWith({ token: "two", clientId: "c" })),
    );
  });

  it("distinguishes two subjects of one client", () => {
    const alice = authenticatedPrincipal(contextWith({ token: "t", clientId: "c", subject: "alice" }));
    const bob = authenticatedPrincipal(contextWith({ token: "t", clientId: "c", subject: "bob" }));
    expect(alice).not.toBe(bob);
  });

  it("ignores the raw token, scopes and expiry, so a refreshed token keeps the principal", () => {
    const before = authenticatedPrincipal(
      contextWith({ token: "one", clientId: "c", subject: "alice", scopes: ["a"], expiresAtMs: 1 }),
    );
    const after = authenticatedPrincipal(
      contextWith({ token: "two", clientId: "c", subject: "alice", scopes: ["a", "b"], expiresAtMs: 2 }),
    );
    expect(after).toBe(before);
  });
});

describe("principal claims", () => {
  it("gives two claims for one principal different salts, both matching it", () => {
    const first = principalClaim("alice");
    const second = principalClaim("alice");
    expect(first).not.toBe(second);
    expect(principalClaimMatches(first, "alice")).toBe(true);
    expect(principalClaimMatches(second, "alice")).toBe(true);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("never matches another principal or a forged claim", () => {
    const claim = principalClaim("alice");
    expect(principalClaimMatches(claim, "bob")).toBe(false);
    expect(principalClaimMatches(claim, "alice ")).toBe(false);
    for (const forged of ["", "not base64!", `${claim}=`, claim.slice(1), `${claim}AAAA`, "A".repeat(32)]) {
      expect(principalClaimMatches(forged, "alice")).toBe(false);
    }
  });

  it("binds and verifies lone-surrogate principals, keeping distinct surrogates distinct", () => {
    const claim = principalClaim("user-\uD800");
    expect(principalClaimMatches(claim, "user-\uD800")).toBe(true);
    expect(principalClaimMatches(claim, "user-\uD801")).toBe(false);
    expect(principalClaimMatches(claim, "user-\uFFFD")).toBe(false);
    expect(principalClaimMatches(principalClaim("\uDC00x\uD83D\uDE00"), "\uDC00x\uD83D\uDE00")).toBe(true);
  });

  it("matches exactly the principal it was made for, for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (principal, other) => {
        const claim = principalClaim(principal);
        expect(principalClaimMatches(claim, principal)).toBe(true);
        if (other !== principal) expect(principalClaimMatches(claim, other)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
