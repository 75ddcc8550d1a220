/**
 * The client's headless grants end to end: `oidc-provider` on 127.0.0.1 issues real JWT access
 * tokens (client credentials with a secret and with `private_key_jwt`, a workload's JWT bearer
 * grant, an enterprise ID-JAG exchanged then presented, DPoP-bound tokens with its nonce), and a
 * tsmcp server behind `bearerAuth` + `jwtVerifier` answers over real HTTP. The client starts with
 * no token: the server's 401 leads it to the metadata, the grant, and the retried request. The same
 * grants run inside `OAuthClientProvider`, DPoP included.
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  jwtVerify,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientCredentialsGrant,
  DPoPProver,
  type ExtensionGrant,
  enterpriseManagedGrant,
  GrantAuthorization,
  type GrantAuthorizationOptions,
  JWT_BEARER_GRANT_TYPE,
  jwtBearerGrant,
  OAuthClientProvider,
  OAuthError,
  TOKEN_EXCHANGE_GRANT_TYPE,
} from "../../packages/tsmcp/src/client/auth/index.js";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { silentLogger } from "../../packages/tsmcp/src/protocol/index.js";
import {
  bearerAuth,
  jwtVerifier,
  MCPServer,
  protectedResourceMetadata,
} from "../../packages/tsmcp/src/server/index.js";
import { HttpClientTransport } from "../../packages/tsmcp/src/transport/http/client/client.js";
import { type Authenticate, resourceMetadataUrl } from "../../packages/tsmcp/src/transport/index.js";
import { TransportError } from "../../packages/tsmcp/src/transport/transport.js";
import {
  ENTERPRISE_CLIENT_ID,
  ENTERPRISE_CLIENT_SECRET,
  type GrantAuthorizationServer,
  KEY_CLIENT_ID,
  SECRET_CLIENT_ID,
  SECRET_CLIENT_SECRET,
  startGrantAuthorizationServer,
  WORKLOAD_CLIENT_ID,
} from "../helpers/grant-authorization-server.js";

const READ = "notes:read";

/** What the resource server saw of DPoP: proofs checked, and nonce challenges sent. */
interface DPoPLog {
  proofs: number;
  nonceChallenges: number;
  jtis: Set<string>;
}

interface Protected {
  url: string;
  dpop: DPoPLog;
  close(): Promise<void>;
}

/** The notes server: `whoami` answers the token's client and subject. */
function notesServer(): MCPServer {
  const mcp = new MCPServer("notes", { logger: silentLogger });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.clientId} as ${ctx.auth?.subject}`);
  return mcp;
}

const RS_NONCE = "rs-nonce-1";

/**
 * Accepts a DPoP-bound token (RFC 9449 §7): checks the proof (signature by its `jwk`, `htm`,
 * `htu`, `ath`, a `jti` not seen before, the key's thumbprint being the token's `cnf.jkt`),
 * demands {@link RS_NONCE} (§9), then lets `bearer` check the token itself.
 */
function dpopAuth(bearer: Authenticate, resource: string, log: DPoPLog): Authenticate {
  return async (request) => {
    const match = /^DPoP (.+)$/.exec(request.headers.get("authorization") ?? "");
    if (match === null) return bearer(request);
    const token = match[1] as string;
    const proof = request.headers.get("dpop") ?? "";
    const header = decodeProtectedHeader(proof);
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk as JWK, header.alg), {
      typ: "dpop+jwt",
    });
    const ath = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))).toString(
      "base64url",
    );
    const cnf = decodeJwt(token).cnf as { jkt?: string } | undefined;
    const ok =
      payload.htm === request.method &&
      payload.htu === resource &&
      payload.ath === ath &&
      typeof payload.jti === "string" &&
      !log.jtis.has(payload.jti) &&
      cnf?.jkt === (await calculateJwkThumbprint(header.jwk as JWK));
    if (!ok)
      return new Response(null, {
        status: 401,
        headers: { "WWW-Authenticate": 'DPoP error="invalid_dpop_proof"' },
      });
    log.jtis.add(payload.jti as string);
    log.proofs++;
    if (payload.nonce !== RS_NONCE) {
      log.nonceChallenges++;
      return new Response(null, {
        status: 401,
        headers: { "WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": RS_NONCE },
      });
    }
    const headers = {
      get: (name: string) =>
        name.toLowerCase() === "authorization" ? `Bearer ${token}` : request.headers.get(name),
      forEach: (callback: (value: string, name: string) => void) => request.headers.forEach(callback),
    };
    return bearer({ ...request, headers });
  };
}

/** Serves the notes server on 127.0.0.1 behind bearer auth (and DPoP), publishing its metadata. */
async function serveProtected(as: GrantAuthorizationServer): Promise<Protected> {
  let listener: ((req: never, res: never) => void) | undefined;
  const server: NodeServer = createServer((req, res) =>
    (listener as (a: typeof req, b: typeof res) => void)(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const dpop: DPoPLog = { proofs: 0, nonceChallenges: 0, jtis: new Set() };
  const bearer = bearerAuth({
    verifier: jwtVerifier({ issuer: as.issuer, audience: url, jwksUri: as.jwksUri }),
    requiredScopes: [READ],
    resourceMetadataUrl: resourceMetadataUrl(url),
  });
  const handler = notesServer().httpHandler({
    authenticate: dpopAuth(bearer, url, dpop),
    protectedResourceMetadata: protectedResourceMetadata({
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: [READ],
    }),
  });
  listener = getRequestListener(handler) as typeof listener;
  return {
    url,
    dpop,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function whoami(
  url: string,
  options: GrantAuthorizationOptions,
  protocolVersion?: "legacy",
): Promise<string> {
  const auth = new GrantAuthorization(options);
  const client = await Client.connect(new HttpClientTransport(url, { auth }), {
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
  });
  try {
    const result = await client.callTool("whoami", {});
    return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  } finally {
    await client.close();
  }
}

describe("headless grants against oidc-provider and a protected tsmcp server", () => {
  let as: GrantAuthorizationServer;
  let notes: Protected;

  beforeAll(async () => {
    as = await startGrantAuthorizationServer();
    notes = await serveProtected(as);
  });

  afterAll(async () => {
    await notes?.close();
    await as?.close();
  });

  it("a client with a secret gets a token by client credentials on the server's 401 and calls a tool", async () => {
    const grant = clientCredentialsGrant({
      client: { clientId: SECRET_CLIENT_ID, clientSecret: SECRET_CLIENT_SECRET, issuer: as.issuer },
    });
    expect(await whoami(notes.url, { grant })).toBe(`${SECRET_CLIENT_ID} as ${SECRET_CLIENT_ID}`);
  });

  it("a client with a private key authenticates with a signed assertion (private_key_jwt)", async () => {
    const grant = clientCredentialsGrant({
      client: { clientId: KEY_CLIENT_ID, privateKey: as.clientKey, issuer: as.issuer },
    });
    expect(await whoami(notes.url, { grant })).toBe(`${KEY_CLIENT_ID} as ${KEY_CLIENT_ID}`);
  });

  it("the same grant works over a handshake-era session (initialize, then the call)", async () => {
    const grant = clientCredentialsGrant({
      client: { clientId: SECRET_CLIENT_ID, clientSecret: SECRET_CLIENT_SECRET, issuer: as.issuer },
    });
    expect(await whoami(notes.url, { grant }, "legacy")).toContain(SECRET_CLIENT_ID);
  });

  it("a wrong secret fails the call with the token endpoint's invalid_client, as an OAuthError cause", async () => {
    const grant = clientCredentialsGrant({
      client: { clientId: SECRET_CLIENT_ID, clientSecret: "wrong", issuer: as.issuer },
    });
    const failure = await whoami(notes.url, { grant }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).cause).toBeInstanceOf(OAuthError);
    expect(((failure as TransportError).cause as OAuthError).reason).toBe("token");
    expect(String((failure as TransportError).message)).toContain("invalid_client");
    expect(String((failure as TransportError).message)).not.toContain("wrong");
  });

  it("a workload presents its platform token as a JWT bearer grant (workload identity federation)", async () => {
    const grant = jwtBearerGrant({
      client: { clientId: WORKLOAD_CLIENT_ID },
      assertion: () => as.workloadToken(),
    });
    expect(await whoami(notes.url, { grant })).toBe(`${WORKLOAD_CLIENT_ID} as ${WORKLOAD_CLIENT_ID}`);
  });

  it("a refused workload token is not retried and no other grant is tried", async () => {
    const before = as.grantTypes.length;
    const grant = jwtBearerGrant({
      client: { clientId: WORKLOAD_CLIENT_ID },
      assertion: () => as.workloadToken("https://elsewhere.example"),
    });
    const failure = await whoami(notes.url, { grant }).catch((error: unknown) => error);
    expect(((failure as TransportError).cause as OAuthError).message).toContain("invalid_grant");
    expect(as.grantTypes.slice(before)).toEqual([JWT_BEARER_GRANT_TYPE]);
  });

  it("an enterprise user's ID token is exchanged for an ID-JAG, which the client presents for its token", async () => {
    const before = as.grantTypes.length;
    const grant = enterpriseManagedGrant({
      client: { clientId: ENTERPRISE_CLIENT_ID, clientSecret: ENTERPRISE_CLIENT_SECRET, issuer: as.issuer },
      idp: {
        issuer: as.issuer,
        tokenEndpoint: `${as.issuer}/token`,
        client: { clientId: ENTERPRISE_CLIENT_ID, clientSecret: ENTERPRISE_CLIENT_SECRET },
      },
      subjectToken: () => as.idToken("alice@example.com"),
    });
    expect(await whoami(notes.url, { grant })).toBe(`${ENTERPRISE_CLIENT_ID} as ${ENTERPRISE_CLIENT_ID}`);
    expect(as.grantTypes.slice(before)).toEqual([TOKEN_EXCHANGE_GRANT_TYPE, JWT_BEARER_GRANT_TYPE]);
  });

  it("a DPoP-bound token goes with a fresh proof on every request, and the server's nonce is taken", async () => {
    const prover = await DPoPProver.generate();
    const grant = clientCredentialsGrant({
      client: { clientId: SECRET_CLIENT_ID, clientSecret: SECRET_CLIENT_SECRET, issuer: as.issuer },
    });
    const proofsBefore = notes.dpop.proofs;
    const challengesBefore = notes.dpop.nonceChallenges;
    const auth = new GrantAuthorization({ grant, dpop: prover });
    const client = await Client.connect(new HttpClientTransport(notes.url, { auth }));
    try {
      await client.callTool("whoami", {});
      await client.callTool("whoami", {});
    } finally {
      await client.close();
    }
    expect(notes.dpop.nonceChallenges - challengesBefore).toBe(1);
    expect(notes.dpop.proofs - proofsBefore).toBeGreaterThanOrEqual(4);
  });
});

describe("DPoP with an authorization server that demands its nonce", () => {
  let as: GrantAuthorizationServer;
  let notes: Protected;

  beforeAll(async () => {
    as = await startGrantAuthorizationServer({ requireDPoPNonce: true });
    notes = await serveProtected(as);
  });

  afterAll(async () => {
    await notes?.close();
    await as?.close();
  });

  it("the token request is retried once with the server's nonce and yields a DPoP-bound token", async () => {
    const grant: ExtensionGrant = clientCredentialsGrant({
      client: { clientId: KEY_CLIENT_ID, privateKey: as.clientKey, issuer: as.issuer },
    });
    expect(await whoami(notes.url, { grant, dpop: true })).toBe(`${KEY_CLIENT_ID} as ${KEY_CLIENT_ID}`);
    expect(as.grantTypes).toEqual(["client_credentials", "client_credentials"]);
    expect(notes.dpop.proofs).toBeGreaterThan(0);
  });

  it("OAuthClientProvider runs an extension grant with DPoP too: both nonces taken, proofs on every request", async () => {
    const tokenRequests = as.grantTypes.length;
    const challenges = notes.dpop.nonceChallenges;
    const proofs = notes.dpop.proofs;
    const auth = new OAuthClientProvider({
      grant: clientCredentialsGrant({
        client: { clientId: SECRET_CLIENT_ID, clientSecret: SECRET_CLIENT_SECRET, issuer: as.issuer },
      }),
      client: { clientId: SECRET_CLIENT_ID, clientSecret: SECRET_CLIENT_SECRET, issuer: as.issuer },
      dpop: true,
    });
    const client = await Client.connect(new HttpClientTransport(notes.url, { auth }));
    try {
      const result = await client.callTool("whoami", {});
      expect(result.content).toEqual([{ type: "text", text: `${SECRET_CLIENT_ID} as ${SECRET_CLIENT_ID}` }]);
    } finally {
      await client.close();
    }
    expect(as.grantTypes.slice(tokenRequests)).toEqual(["client_credentials", "client_credentials"]);
    expect(notes.dpop.nonceChallenges - challenges).toBe(1);
    expect(notes.dpop.proofs - proofs).toBeGreaterThanOrEqual(3);
  });
});
