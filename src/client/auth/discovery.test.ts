/**
 * Where discovery looks, in the spec's order, and which protected resource metadata may stand for
 * a server. Spec: basic/authorization/authorization-server-discovery.
 */
import { describe, expect, it } from "vitest";
import { authorizationServerMetadataUrls, resourceCovers, resourceMetadataUrls } from "./discovery.js";

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
