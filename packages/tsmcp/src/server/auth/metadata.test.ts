/** The protected resource metadata document, its URL, and the verifiers' construction checks and defaults. */
import { describe, expect, it } from "vitest";
import { resourceMetadataUrl } from "../../transport/http/server/resource-metadata.js";
import {
  DEFAULT_INTROSPECTION_CACHE_ENTRIES,
  DEFAULT_INTROSPECTION_CACHE_TTL_MS,
  DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS,
  DEFAULT_INTROSPECTION_TIMEOUT_MS,
  introspectionVerifier,
} from "./introspection.js";
import {
  DEFAULT_CLOCK_SKEW_MS,
  DEFAULT_JWKS_CACHE_MAX_AGE_MS,
  DEFAULT_JWKS_COOLDOWN_MS,
  DEFAULT_JWKS_TIMEOUT_MS,
  DEFAULT_JWT_ALGORITHMS,
  DEFAULT_JWT_TYP,
  jwtVerifier,
} from "./jwt.js";
import { DEFAULT_BEARER_METHODS, protectedResourceMetadata } from "./metadata.js";
import { scopesOfClaims } from "./verifier.js";

describe("protectedResourceMetadata", () => {
  it("builds the RFC 9728 document with the header bearer method by default", () => {
    expect(
      protectedResourceMetadata({
        resource: "https://mcp.example.com/mcp",
        authorizationServers: ["https://auth.example.com"],
        scopesSupported: ["notes:read"],
        resourceName: "Notes",
      }),
    ).toStrictEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: ["https://auth.example.com"],
      bearer_methods_supported: ["header"],
      scopes_supported: ["notes:read"],
      resource_name: "Notes",
    });
  });

  it("refuses a resource with a fragment or not a URL, and an empty authorization server list", () => {
    const servers = ["https://auth.example.com"];
    expect(() =>
      protectedResourceMetadata({ resource: "https://x.example/mcp#f", authorizationServers: servers }),
    ).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ resource: "mcp", authorizationServers: servers })).toThrow(
      TypeError,
    );
    expect(() =>
      protectedResourceMetadata({ resource: "https://x.example/mcp", authorizationServers: [] }),
    ).toThrow(TypeError);
    expect(() =>
      protectedResourceMetadata({ resource: "https://x.example/mcp", authorizationServers: ["nope"] }),
    ).toThrow(TypeError);
  });

  it("lives at the well-known prefix inserted before the resource's path", () => {
    expect(resourceMetadataUrl("https://mcp.example.com/mcp")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    );
    expect(resourceMetadataUrl("https://mcp.example.com/")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    );
    expect(resourceMetadataUrl("http://127.0.0.1:8000/a/b")).toBe(
      "http://127.0.0.1:8000/.well-known/oauth-protected-resource/a/b",
    );
  });
});

describe("the verifiers' defaults and construction checks", () => {
  it("pins the defaults", () => {
    expect(DEFAULT_BEARER_METHODS).toEqual(["header"]);
    expect(DEFAULT_JWT_ALGORITHMS).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
    expect(DEFAULT_JWT_TYP).toBe("at+jwt");
    expect(DEFAULT_CLOCK_SKEW_MS).toBe(30_000);
    expect(DEFAULT_JWKS_COOLDOWN_MS).toBe(30_000);
    expect(DEFAULT_JWKS_CACHE_MAX_AGE_MS).toBe(600_000);
    expect(DEFAULT_JWKS_TIMEOUT_MS).toBe(5_000);
    expect(DEFAULT_INTROSPECTION_CACHE_TTL_MS).toBe(60_000);
    expect(DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS).toBe(5_000);
    expect(DEFAULT_INTROSPECTION_CACHE_ENTRIES).toBe(1_000);
    expect(DEFAULT_INTROSPECTION_TIMEOUT_MS).toBe(5_000);
  });

  it("refuses a JWT verifier without issuer, audience or exactly one key source", () => {
    const base = { issuer: "https://auth.example.com", audience: "https://mcp.example.com/mcp" };
    const jwksUri = "https://auth.example.com/jwks";
    expect(() => jwtVerifier({ ...base, jwksUri })).not.toThrow();
    expect(() => jwtVerifier({ ...base })).toThrow("exactly one of jwksUri and jwks");
    expect(() => jwtVerifier({ ...base, jwksUri, jwks: async () => ({}) as never })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, issuer: "", jwksUri })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, audience: "notes", jwksUri })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, jwksUri, algorithms: [] })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, jwksUri, clockSkewMs: -1 })).toThrow(RangeError);
    expect(() => jwtVerifier({ ...base, jwksUri, typ: "" })).toThrow(TypeError);
    expect(() => jwtVerifier({ ...base, jwksUri, typ: null })).not.toThrow();
  });

  it("refuses an introspection verifier without credentials or audience", () => {
    const base = {
      endpoint: "https://auth.example.com/introspect",
      clientId: "rs",
      clientSecret: "secret",
      audience: "https://mcp.example.com/mcp",
    };
    expect(() => introspectionVerifier(base)).not.toThrow();
    expect(() => introspectionVerifier({ ...base, clientSecret: "" })).toThrow(TypeError);
    expect(() => introspectionVerifier({ ...base, audience: undefined as never })).toThrow(TypeError);
    expect(() => introspectionVerifier({ ...base, maxCacheEntries: 0 })).toThrow(RangeError);
    expect(() => introspectionVerifier({ ...base, inactiveCacheTtlMs: -1 })).toThrow(RangeError);
  });

  it("reads scopes from a space-separated scope claim, or an scp array or space-separated string", () => {
    expect(scopesOfClaims({ scope: "a  b" })).toEqual(["a", "b"]);
    expect(scopesOfClaims({ scp: ["a", 1, "b"] })).toEqual(["a", "b"]);
    expect(scopesOfClaims({ scp: "notes.read  notes.write" })).toEqual(["notes.read", "notes.write"]);
    expect(scopesOfClaims({ scope: "a", scp: "b" })).toEqual(["a"]);
    expect(scopesOfClaims({})).toEqual([]);
  });
});
