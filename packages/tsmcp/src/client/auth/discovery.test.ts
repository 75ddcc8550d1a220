/**
 * Where discovery looks, in the spec's order, and which protected resource metadata may stand for
 * a server. Spec: basic/authorization/authorization-server-discovery.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  resourceCovers,
  resourceMetadataUrls,
} from "./discovery.js";

const hrefs = (urls: URL[]) => urls.map((u) => u.href);

describe("resourceMetadataUrls", () => {
  it("uses the challenge's resource_metadata alone when it names one", () => {
    expect(
      hrefs(
        resourceMetadataUrls(
          new URL("https://mcp.example.com/mcp"),
          "https://mcp.example.com/custom/prm.json",
        ),
      ),
    ).toEqual(["https://mcp.example.com/custom/prm.json"]);
  });

  it("tries the path-suffixed well-known URL, then the root one", () => {
    expect(hrefs(resourceMetadataUrls(new URL("https://mcp.example.com/public/mcp"), undefined))).toEqual([
      "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    ]);
  });

  it("tries only the root for a server at the root", () => {
    expect(hrefs(resourceMetadataUrls(new URL("https://mcp.example.com/"), undefined))).toEqual([
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    ]);
  });
});

describe("authorizationServerMetadataUrls", () => {
  it("for an issuer with a path: OAuth path insertion, OpenID path insertion, OpenID path appending", () => {
    expect(hrefs(authorizationServerMetadataUrls(new URL("https://auth.example.com/tenant1")))).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example.com/.well-known/openid-configuration/tenant1",
      "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
  });

  it("for an issuer without a path: OAuth, then OpenID", () => {
    expect(hrefs(authorizationServerMetadataUrls(new URL("https://auth.example.com")))).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });
});

describe("resourceCovers", () => {
  const server = new URL("https://mcp.example.com/tenant/mcp");

  it("accepts the server's own URL and its parents on the same origin", () => {
    expect(resourceCovers("https://mcp.example.com/tenant/mcp", server)).toBe(true);
    expect(resourceCovers("https://mcp.example.com/tenant/mcp/", server)).toBe(true);
    expect(resourceCovers("https://mcp.example.com/tenant", server)).toBe(true);
    expect(resourceCovers("https://mcp.example.com", server)).toBe(true);
    expect(resourceCovers("HTTPS://MCP.EXAMPLE.COM/tenant/mcp", server)).toBe(true);
  });

  it("refuses another origin, a sibling path, a path prefix that is no parent, a fragment, or no URL", () => {
    expect(resourceCovers("https://evil.example.com/tenant/mcp", server)).toBe(false);
    expect(resourceCovers("http://mcp.example.com/tenant/mcp", server)).toBe(false);
    expect(resourceCovers("https://mcp.example.com:8443/tenant/mcp", server)).toBe(false);
    expect(resourceCovers("https://mcp.example.com/other/mcp", server)).toBe(false);
    expect(resourceCovers("https://mcp.example.com/ten", server)).toBe(false);
    expect(resourceCovers("https://mcp.example.com/tenant/mcp#x", server)).toBe(false);
    expect(resourceCovers("mcp.example.com", server)).toBe(false);
  });
});

/** An authorization server on 127.0.0.1 serving metadata with `fields` over its own issuer. */
async function serveMetadata(fields: (issuer: string) => Record<string, unknown>): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(fields(issuer)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return issuer;
}

describe("discoverAuthorizationServer", () => {
  const http = { fetch, signal: new AbortController().signal };

  it.each([
    ["authorization_endpoint", "file:///etc/passwd", '"file:"'],
    ["authorization_endpoint", "ms-msdt:/id", '"ms-msdt:"'],
    ["token_endpoint", "smb://attacker.example/share", '"smb:"'],
    ["registration_endpoint", "javascript:alert(1)", '"javascript:"'],
    ["device_authorization_endpoint", "http://as.example/device", "plain http:"],
    ["revocation_endpoint", "not a url", "not an absolute URL"],
  ])("refuses metadata whose %s is %s, naming it and its scheme", async (name, value, named) => {
    const issuer = await serveMetadata((iss) => ({
      issuer: iss,
      authorization_endpoint: `${iss}/authorize`,
      token_endpoint: `${iss}/token`,
      [name]: value,
    }));
    const error = await discoverAuthorizationServer(http, issuer).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "OAuthError", reason: "discovery" });
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).toContain(named);
  });

  it("accepts https: and loopback http: endpoints", async () => {
    const issuer = await serveMetadata((iss) => ({
      issuer: iss,
      authorization_endpoint: "https://as.example/authorize",
      token_endpoint: `${iss}/token`,
      registration_endpoint: "http://localhost:1/register",
    }));
    await expect(discoverAuthorizationServer(http, issuer)).resolves.toMatchObject({
      authorization_endpoint: "https://as.example/authorize",
    });
  });
});
