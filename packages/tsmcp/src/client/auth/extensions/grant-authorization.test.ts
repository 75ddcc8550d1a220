import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpAuthChallenge } from "../../../transport/http/client/client-auth.js";
import { OAuthClientProvider } from "../provider.js";
import { DEFAULT_DPOP_ALGORITHM, DPoPProver } from "./dpop.js";
import type { ExtensionGrant, ExtensionGrantContext } from "./grant.js";
import { GrantAuthorization, TOKEN_EXPIRY_MARGIN_MS } from "./grant-authorization.js";

/** A resource's metadata and its authorization server's, served on 127.0.0.1. */
let server: Server;
let origin: string;
let advertiseDPoP = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/oauth-protected-resource/mcp") {
      res.end(
        JSON.stringify({
          // As the client reached it: 127.0.0.1 or localhost.
          resource: `http://${req.headers.host}/mcp`,
          authorization_servers: [origin],
          scopes_supported: ["a", "b"],
        }),
      );
    } else if (req.url === "/.well-known/oauth-authorization-server") {
      res.end(
        JSON.stringify({
          issuer: origin,
          token_endpoint: `${origin}/token`,
          ...(advertiseDPoP ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
        }),
      );
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A grant that records each context and answers the next token (or `tokenType`, `expiresIn`). */
function recordingGrant(answer: { tokenType?: string; expiresIn?: number } = {}) {
  const contexts: ExtensionGrantContext[] = [];
  let count = 0;
  const grant: ExtensionGrant = {
    grantTypes: ["test"],
    redirectUris: [],
    async obtain(context) {
      contexts.push(context);
      count++;
      return {
        access_token: `token-${count}`,
        token_type: (answer.tokenType ?? "bearer") as Lowercase<string>,
        ...(answer.expiresIn === undefined ? {} : { expires_in: answer.expiresIn }),
      };
    },
  };
  return { grant, contexts };
}

function challenge(
  status: 401 | 403,
  wwwAuthenticate: string | null,
  options: { attempt?: number; signal?: AbortSignal; headers?: Record<string, string> } = {},
): HttpAuthChallenge {
  const headers: Record<string, string | null> = { "www-authenticate": wwwAuthenticate, ...options.headers };
  return {
    method: "POST",
    url: new URL(`${origin}/mcp?x=1`),
    signal: options.signal ?? new AbortController().signal,
    status,
    attempt: options.attempt ?? 0,
    header: (name) => headers[name] ?? null,
  };
}

const request = () => ({
  method: "POST" as const,
  url: new URL(`${origin}/mcp`),
  signal: new AbortController().signal,
});
const bearer = () => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;

describe("GrantAuthorization", () => {
  it("pins its defaults", () => {
    expect(TOKEN_EXPIRY_MARGIN_MS).toBe(30_000);
    expect(DEFAULT_DPOP_ALGORITHM).toBe("ES256");
  });

  it("refuses bad options when it is built", () => {
    const { grant } = recordingGrant();
    expect(() => new GrantAuthorization(undefined as never)).toThrow(TypeError);
    expect(() => new GrantAuthorization({ grant: {} as never })).toThrow(
      /option "grant" must be an ExtensionGrant/,
    );
    expect(() => new GrantAuthorization({ grant, scope: 1 as never })).toThrow(/option "scope"/);
    expect(() => new GrantAuthorization({ grant, dpop: "yes" as never })).toThrow(/option "dpop"/);
    expect(() => new OAuthClientProvider({ grant, client: { clientId: "c" }, dpop: 1 as never })).toThrow(
      /OAuthClientProvider option "dpop" must be a boolean or a DPoPProver/,
    );
    expect(() => new GrantAuthorization({ grant, fetch: 1 as never })).toThrow(/option "fetch"/);
  });

  it("sends no credential before the server asks, then obtains a token on the 401 and presents it", async () => {
    const { grant, contexts } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    expect(await auth.headers(request())).toEqual({});
    expect(await auth.onChallenge(challenge(401, bearer()))).toBe(true);
    expect(await auth.headers(request())).toEqual({ authorization: "Bearer token-1" });
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.as.issuer).toBe(origin);
    expect(contexts[0]?.resource).toBe(`${origin}/mcp`);
    expect(contexts[0]?.dpop).toBeUndefined();
  });

  it("finds the metadata at the well-known URL when the challenge does not name it", async () => {
    const { grant, contexts } = recordingGrant();
    expect(await new GrantAuthorization({ grant }).onChallenge(challenge(401, "Bearer"))).toBe(true);
    expect(contexts[0]?.resource).toBe(`${origin}/mcp`);
  });

  it("requests the option's scope, else the challenge's, else the metadata's scopes_supported", async () => {
    const scopes: (string | undefined)[] = [];
    for (const [option, header] of [
      ["x", `${bearer()}, scope="c"`],
      [undefined, `${bearer()}, scope="c"`],
      [undefined, bearer()],
    ] as const) {
      const { grant, contexts } = recordingGrant();
      await new GrantAuthorization({ grant, ...(option === undefined ? {} : { scope: option }) }).onChallenge(
        challenge(401, header),
      );
      scopes.push(contexts[0]?.scope);
    }
    expect(scopes).toEqual(["x", "c", "a b"]);
  });

  it("lets a second 401 to the same request stand instead of obtaining tokens in a loop", async () => {
    const { grant, contexts } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    const signal = new AbortController().signal;
    expect(await auth.onChallenge(challenge(401, bearer(), { signal }))).toBe(true);
    expect(await auth.onChallenge(challenge(401, bearer(), { signal, attempt: 1 }))).toBe(false);
    expect(contexts).toHaveLength(1);
  });

  it("runs the grant once for challenges that arrive together", async () => {
    const { grant, contexts } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    await Promise.all([
      auth.onChallenge(challenge(401, bearer())),
      auth.onChallenge(challenge(401, bearer())),
    ]);
    expect(contexts).toHaveLength(1);
  });

  it("steps up on 403 insufficient_scope with the scope it names, and lets any other 403 stand", async () => {
    const { grant, contexts } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    await auth.onChallenge(challenge(401, bearer()));
    expect(
      await auth.onChallenge(challenge(403, `Bearer error="insufficient_scope", scope="a b admin"`)),
    ).toBe(true);
    expect(contexts.map((c) => c.scope)).toEqual(["a b", "a b admin"]);
    expect(await auth.headers(request())).toEqual({ authorization: "Bearer token-2" });
    expect(await auth.onChallenge(challenge(403, `Bearer error="invalid_token"`))).toBe(false);
    expect(contexts).toHaveLength(2);
  });

  it("replaces a token about to expire before sending it", async () => {
    const { grant, contexts } = recordingGrant({ expiresIn: TOKEN_EXPIRY_MARGIN_MS / 1000 - 1 });
    const auth = new GrantAuthorization({ grant });
    await auth.onChallenge(challenge(401, bearer()));
    expect(await auth.headers(request())).toEqual({ authorization: "Bearer token-2" });
    expect(contexts).toHaveLength(2);
  });

  it("uses DPoP when the authorization server lists ES256, unless told not to, or when told to", async () => {
    const used: boolean[] = [];
    for (const [advertised, dpop] of [
      [false, undefined],
      [true, undefined],
      [true, false],
      [false, true],
    ] as const) {
      advertiseDPoP = advertised;
      const { grant, contexts } = recordingGrant();
      await new GrantAuthorization({ grant, ...(dpop === undefined ? {} : { dpop }) }).onChallenge(
        challenge(401, bearer()),
      );
      used.push(contexts[0]?.dpop !== undefined);
    }
    advertiseDPoP = false;
    expect(used).toEqual([false, true, false, true]);
  });

  it("presents a DPoP-bound token with a proof, and puts the resource server's nonce in the next one", async () => {
    const { grant } = recordingGrant({ tokenType: "dpop" });
    const auth = new GrantAuthorization({ grant, dpop: true });
    await auth.onChallenge(challenge(401, bearer()));
    const first = await auth.headers(request());
    expect(first.authorization).toBe("DPoP token-1");
    expect(decodeJwt(first.dpop as string).nonce).toBeUndefined();
    const nonceChallenge = challenge(401, `DPoP error="use_dpop_nonce"`, {
      headers: { "dpop-nonce": "n-1" },
    });
    expect(await auth.onChallenge(nonceChallenge)).toBe(true);
    expect(decodeJwt((await auth.headers(request())).dpop as string).nonce).toBe("n-1");
  });

  it("keeps a token per resource and never sends one server's token to another", async () => {
    // The same server reached as localhost is another origin, hence another resource.
    const other = origin.replace("127.0.0.1", "localhost");
    const { grant, contexts } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    await auth.onChallenge(challenge(401, bearer()));
    expect(await auth.headers(request())).toEqual({ authorization: "Bearer token-1" });
    const toOther = {
      method: "POST" as const,
      url: new URL(`${other}/mcp`),
      signal: new AbortController().signal,
    };
    expect(await auth.headers(toOther)).toEqual({});
    expect(
      await auth.onChallenge({
        ...challenge(401, "Bearer"),
        url: new URL(`${other}/mcp`),
        signal: toOther.signal,
      }),
    ).toBe(true);
    expect(contexts.map((c) => c.resource)).toEqual([`${origin}/mcp`, `${other}/mcp`]);
    expect(await auth.headers(toOther)).toEqual({ authorization: "Bearer token-2" });
    expect(await auth.headers(request())).toEqual({ authorization: "Bearer token-1" });
    expect(await auth.headers({ ...request(), url: new URL(`${origin}/other`) })).toEqual({});
  });

  it("lets a use_dpop_nonce challenge stand when it carries no nonce or the token is no DPoP token", async () => {
    const { grant } = recordingGrant();
    const auth = new GrantAuthorization({ grant });
    await auth.onChallenge(challenge(401, bearer()));
    const nonce = { headers: { "dpop-nonce": "n-1" } };
    expect(await auth.onChallenge(challenge(401, `DPoP error="use_dpop_nonce"`, nonce))).toBe(false);
  });
});

describe("DPoPProver", () => {
  it("signs a fresh proof per request bound to the method, the URL without its query, and the token", async () => {
    const prover = await DPoPProver.generate();
    const url = new URL("https://mcp.example/mcp?session=1");
    const one = await prover.resourceHeaders("tok", "POST", url);
    const two = await prover.resourceHeaders("tok", "GET", url);
    expect(one.authorization).toBe("DPoP tok");
    const header = decodeProtectedHeader(one.dpop as string);
    expect(header.typ).toBe("dpop+jwt");
    expect(header.alg).toBe("ES256");
    expect((header.jwk as Record<string, unknown>).d).toBeUndefined();
    const claims = decodeJwt(one.dpop as string);
    expect(claims.htm).toBe("POST");
    expect(claims.htu).toBe("https://mcp.example/mcp");
    expect(claims.ath).toBe(createHash("sha256").update("tok").digest("base64url"));
    expect(decodeJwt(two.dpop as string).htm).toBe("GET");
    expect(decodeJwt(two.dpop as string).jti).not.toBe(claims.jti);
  });

  it("keeps a nonce per origin", async () => {
    const prover = await DPoPProver.generate();
    await prover.takeNonce(new URL("https://a.example/mcp"), "for-a");
    expect(
      decodeJwt((await prover.resourceHeaders("t", "POST", new URL("https://a.example/x"))).dpop as string)
        .nonce,
    ).toBe("for-a");
    expect(
      decodeJwt((await prover.resourceHeaders("t", "POST", new URL("https://b.example/x"))).dpop as string)
        .nonce,
    ).toBeUndefined();
  });
});
