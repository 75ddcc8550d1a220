/**
 * `jwtVerifier` with real keys and a real JWKS endpoint on 127.0.0.1: an authorization server that
 * is down (503, HTML) is an outage (500, logged), never a bad token (401); the token faults stay
 * `invalid_token`; the verifier's clock skew and `bearerAuth`'s expiry check agree; `typ` is
 * checked (`at+jwt` by default).
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modern, post } from "../../../../../test/helpers/mcp-post.js";
import { serve } from "../../transport/http/node/node.js";
import { MCPServer } from "../mcp/server.js";
import { bearerAuth } from "./bearer.js";
import { jwtVerifier } from "./jwt.js";
import { InvalidTokenError } from "./verifier.js";

const ISSUER = "https://auth.example.com";
const AUDIENCE = "https://mcp.example.com/mcp";

let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let jwk: JWK;
let jwks: NodeServer;
let jwksUrl: string;
/** What the JWKS endpoint answers next. */
let jwksAnswer: { status: number; type: string; body: string };

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  jwks = createServer((_req, res) => {
    res.writeHead(jwksAnswer.status, { "Content-Type": jwksAnswer.type });
    res.end(jwksAnswer.body);
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
});

afterAll(async () => {
  await new Promise((resolve) => jwks?.close(resolve));
});

/** A token for AUDIENCE, expiring `expiresInS` seconds from now (negative: in the past). */
function token(expiresInS = 300, typ = "at+jwt", kid = "k1"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: "notes:read", client_id: "app" })
    .setProtectedHeader({ alg: "ES256", typ, kid })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject("alice")
    .setIssuedAt(now - 600)
    .setExpirationTime(now + expiresInS)
    .sign(privateKey);
}

describe("jwtVerifier when the JWKS endpoint is down", () => {
  it("answers 500 and logs the cause for a 503 or an HTML page, and 401 for a bad token once it is back", async () => {
    const errors: unknown[] = [];
    const mcp = new MCPServer("notes", {
      logger: { debug() {}, info() {}, warn() {}, error: (...args) => errors.push(args) },
    });
    mcp.tool("whoami", {}, (_args, ctx) => String(ctx.auth?.subject));
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: jwksUrl, jwksCooldownMs: 0 });
    const handle = await serve(mcp, { port: 0, authenticate: bearerAuth({ verifier }) });
    try {
      const good = await token();
      for (const answer of [
        { status: 503, type: "text/plain", body: "Service Unavailable" },
        { status: 200, type: "text/html", body: "<html>maintenance</html>" },
      ]) {
        jwksAnswer = answer;
        const errorsBefore = errors.length;
        const refused = await post(handle.url, modern("tools/list"), good);
        expect(refused.status).toBe(500);
        expect(refused.challenge).toBeNull();
        expect(errors.length).toBeGreaterThan(errorsBefore);
      }
      jwksAnswer = { status: 200, type: "application/json", body: JSON.stringify({ keys: [jwk] }) };
      expect((await post(handle.url, modern("tools/list"), good)).status).toBe(200);
      const forged = `${good.slice(0, -6)}AAAAAA`;
      const refused = await post(handle.url, modern("tools/list"), forged);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
    } finally {
      await handle.close();
    }
  });
});

describe("jwtVerifier token checks", () => {
  const local = () => createLocalJWKSet({ keys: [jwk] });

  it("refuses a token without typ at+jwt by default, and takes the typ it is told to", async () => {
    const plain = await token(300, "JWT");
    const strict = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: local() });
    await expect(strict.verify(plain)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(strict.verify(await token())).resolves.toMatchObject({ subject: "alice" });
    const entra = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: local(), typ: "JWT" });
    await expect(entra.verify(plain)).resolves.toMatchObject({ subject: "alice" });
    const unchecked = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: local(), typ: null });
    await expect(unchecked.verify(plain)).resolves.toMatchObject({ subject: "alice" });
  });

  it("refuses a token naming a key the JWKS does not have as invalid_token", async () => {
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: local() });
    await expect(verifier.verify(await token(300, "at+jwt", "k2"))).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it("agrees with bearerAuth on expiry: a token expired within the clock skew is accepted by both", async () => {
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: local(), clockSkewMs: 60_000 });
    const lately = await token(-20);
    await expect(verifier.verify(lately)).resolves.toMatchObject({ subject: "alice" });
    const hook = bearerAuth({ verifier });
    const request = {
      method: "POST",
      url: AUDIENCE,
      headers: new Headers({ Authorization: `Bearer ${lately}` }),
    };
    expect(await hook(request)).toMatchObject({ subject: "alice" });
    const long = await token(-120);
    await expect(verifier.verify(long)).rejects.toBeInstanceOf(InvalidTokenError);
    const response = await hook({ ...request, headers: new Headers({ Authorization: `Bearer ${long}` }) });
    expect((response as Response).status).toBe(401);
  });
});
