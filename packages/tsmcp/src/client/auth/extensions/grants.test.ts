import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { generateKeyPair } from "jose";
import { customFetch } from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { OAuthError } from "../errors.js";
import { requestOptions } from "../http.js";
import { clientCredentialsGrant } from "./client-credentials.js";
import {
  enterpriseManagedGrant,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  TOKEN_EXCHANGE_GRANT_TYPE,
} from "./enterprise-managed.js";
import { JWT_BEARER_GRANT_TYPE, jwtBearerGrant } from "./jwt-bearer.js";

const issuer = "https://auth.example.com";
const idp = { tokenEndpoint: "https://idp.example/token", client: { clientId: "sso" } };

describe("the extension grants", () => {
  it("pin the protocol's names", () => {
    expect(JWT_BEARER_GRANT_TYPE).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(TOKEN_EXCHANGE_GRANT_TYPE).toBe("urn:ietf:params:oauth:grant-type:token-exchange");
    expect(ID_JAG_TOKEN_TYPE).toBe("urn:ietf:params:oauth:token-type:id-jag");
    expect(ID_TOKEN_TYPE).toBe("urn:ietf:params:oauth:token-type:id_token");
  });

  it("client credentials need a confidential client: a secret or a private key, not both, not neither", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    expect(
      clientCredentialsGrant({ client: { clientId: "a", clientSecret: "s", issuer } }).grantTypes,
    ).toEqual(["client_credentials"]);
    expect(clientCredentialsGrant({ client: { clientId: "a", privateKey, issuer } }).grantTypes).toEqual([
      "client_credentials",
    ]);
    expect(() => clientCredentialsGrant({ client: { clientId: "a" } })).toThrow(
      /clientSecret or a privateKey/,
    );
    expect(() =>
      clientCredentialsGrant({ client: { clientId: "a", clientSecret: "s", privateKey } as never }),
    ).toThrow(/not both/);
    expect(() => clientCredentialsGrant({ client: { clientId: "a", privateKey: publicKey } })).toThrow(
      /"client.privateKey" must be a private CryptoKey/,
    );
    expect(() => clientCredentialsGrant({ client: { clientId: "", clientSecret: "s" } })).toThrow(
      /"client.clientId"/,
    );
    expect(() => clientCredentialsGrant({ client: { clientId: "a", clientSecret: 1 } as never })).toThrow(
      /"client.clientSecret"/,
    );
    expect(() => clientCredentialsGrant(undefined as never)).toThrow(/"client" must be an object/);
  });

  it("need the issuer of a secret or a key, and send them to no other authorization server", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const required = /option "client.issuer" is required with a clientSecret or privateKey/;
    expect(() => clientCredentialsGrant({ client: { clientId: "a", clientSecret: "s" } as never })).toThrow(
      required,
    );
    expect(() => clientCredentialsGrant({ client: { clientId: "a", privateKey } as never })).toThrow(
      required,
    );
    expect(() =>
      enterpriseManagedGrant({
        client: { clientId: "c", clientSecret: "s" } as never,
        idp,
        subjectToken: () => "t",
      }),
    ).toThrow(required);
    expect(() =>
      clientCredentialsGrant({ client: { clientId: "a", clientSecret: "s", issuer: "nope" } }),
    ).toThrow(/"client.issuer" must be an absolute URL/);
    let sent = 0;
    const context = {
      as: { issuer: "https://evil.example.com", token_endpoint: "https://evil.example.com/token" },
      resource: "https://mcp.example.com/mcp",
      scope: undefined,
      requestOptions: () => ({
        [customFetch]: () => {
          sent++;
          return Promise.reject(new Error("sent"));
        },
      }),
    };
    for (const grant of [
      clientCredentialsGrant({ client: { clientId: "a", clientSecret: "s", issuer } }),
      jwtBearerGrant({ client: { clientId: "w", issuer }, assertion: () => "jwt" }),
      enterpriseManagedGrant({
        client: { clientId: "c", clientSecret: "s", issuer },
        idp,
        subjectToken: () => "t",
      }),
    ]) {
      await expect(grant.obtain(context as never)).rejects.toThrow(
        /registered with https:\/\/auth.example.com, but the server's authorization server is https:\/\/evil.example.com/,
      );
    }
    expect(sent).toBe(0);
  });

  it("the JWT bearer grant needs an assertion function; a public client is fine", () => {
    expect(jwtBearerGrant({ client: { clientId: "w" }, assertion: () => "jwt" }).grantTypes).toEqual([
      JWT_BEARER_GRANT_TYPE,
    ]);
    expect(() => jwtBearerGrant({ client: { clientId: "w" } } as never)).toThrow(/"assertion" is required/);
    expect(() => jwtBearerGrant({ client: { clientId: "w" }, assertion: "jwt" as never })).toThrow(
      /"assertion"/,
    );
  });

  it("enterprise-managed authorization checks its IdP and subject token when it is built", () => {
    const subjectToken = () => "id-token";
    expect(
      enterpriseManagedGrant({ client: { clientId: "c", clientSecret: "s", issuer }, idp, subjectToken })
        .grantTypes,
    ).toEqual([JWT_BEARER_GRANT_TYPE]);
    expect(() =>
      enterpriseManagedGrant({ client: { clientId: "c" }, idp: undefined as never, subjectToken }),
    ).toThrow(/"idp" must be an object/);
    expect(() =>
      enterpriseManagedGrant({
        client: { clientId: "c" },
        idp: { ...idp, tokenEndpoint: "/token" },
        subjectToken,
      }),
    ).toThrow(/"idp.tokenEndpoint" must be an absolute http\(s\) URL/);
    expect(() =>
      enterpriseManagedGrant({ client: { clientId: "c" }, idp: { ...idp, issuer: "nope" }, subjectToken }),
    ).toThrow(/"idp.issuer"/);
    expect(() =>
      enterpriseManagedGrant({
        client: { clientId: "c" },
        idp: { ...idp, client: {} as never },
        subjectToken,
      }),
    ).toThrow(/"idp.client.clientId"/);
    expect(() => enterpriseManagedGrant({ client: { clientId: "c" }, idp } as never)).toThrow(
      /"subjectToken" is required/,
    );
    expect(() =>
      enterpriseManagedGrant({ client: { clientId: "c" }, idp, subjectToken, subjectTokenType: 1 as never }),
    ).toThrow(/"subjectTokenType"/);
  });

  it("keep no token in the error of a token response they cannot use", async () => {
    const server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ access_token: "live-access", refresh_token: "live-refresh", token_type: "mac" }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const http = { fetch, signal: new AbortController().signal };
      const error = await clientCredentialsGrant({
        client: { clientId: "a", clientSecret: "live-secret", issuer: origin },
      })
        .obtain({
          as: { issuer: origin, token_endpoint: `${origin}/token` },
          resource: `${origin}/mcp`,
          scope: undefined,
          requestOptions: (url) => requestOptions(http, url),
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect(inspect(error, { depth: 10 })).not.toMatch(/live-access|live-refresh|live-secret/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
