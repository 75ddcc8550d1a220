/**
 * The everything-client's auth extension scenarios: client credentials (client_secret_basic and
 * private_key_jwt), enterprise-managed authorization (ID-JAG token exchange + JWT bearer grant),
 * DPoP-bound tokens (with and without server nonces) and workload identity federation (JWT
 * bearer). Each connects through a `GrantAuthorization` built from `MCP_CONFORMANCE_CONTEXT`, lists
 * the tools and calls each one, so every request carries the token (and, for DPoP, a fresh proof).
 *
 * The DPoP scenarios authorize a user with the authorization code grant (Dynamic Client
 * Registration, PKCE, the `iss` response parameter checked); the small headless grant below stands
 * in for the client's interactive authorization until `GrantAuthorization` and the interactive
 * provider share one DPoP path.
 */
import { importPKCS8 } from "jose";
import * as oauth from "oauth4webapi";
import {
  Client,
  type ClientIdentity,
  clientCredentialsGrant,
  type ExtensionGrant,
  type ExtensionGrantContext,
  enterpriseManagedGrant,
  GrantAuthorization,
  jwtBearerGrant,
} from "tsmcp/client";
import { HttpClientTransport } from "tsmcp/transport";

type Context = Record<string, unknown>;

/** The redirect URI of the headless authorization: never listened on, the code is read from `Location`. */
const REDIRECT_URI = "http://127.0.0.1/callback";

function field(context: Context, name: string): string {
  const value = context[name];
  if (typeof value !== "string" || value === "") {
    throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${JSON.stringify(name)}`);
  }
  return value;
}

function secretClient(context: Context): ClientIdentity {
  return { clientId: field(context, "client_id"), clientSecret: field(context, "client_secret") };
}

/**
 * The authorization code grant with PKCE, headless: registers a public client, GETs the
 * authorization URL without following the redirect, takes the code from `Location`, and redeems it
 * (with the DPoP proof when the context has a handle; a `use_dpop_nonce` refusal is retried once).
 */
function headlessAuthorizationCode(): ExtensionGrant {
  return {
    grantTypes: ["authorization_code"],
    redirectUris: [REDIRECT_URI],
    async obtain(context: ExtensionGrantContext) {
      const { as } = context;
      const registration = await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: "tsmcp-conformance-client",
          application_type: "native",
          redirect_uris: [REDIRECT_URI],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        },
        context.requestOptions(as.registration_endpoint),
      );
      // Read by hand: the mock registers a secret without `client_secret_expires_at`, which
      // oauth4webapi's strict RFC 7591 check refuses; this public client never uses the secret.
      if (registration.status !== 201) throw new Error(`registration answered ${registration.status}`);
      const registered = (await registration.json()) as { client_id: string };
      const client: oauth.Client = { client_id: registered.client_id };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorize = new URL(as.authorization_endpoint ?? "");
      authorize.search = new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        resource: context.resource,
        ...(context.scope === undefined ? {} : { scope: context.scope }),
      }).toString();
      const answer = await fetch(authorize, { redirect: "manual" });
      await answer.body?.cancel();
      const location = answer.headers.get("location");
      if (location === null)
        throw new Error(`the authorization endpoint answered ${answer.status} without a redirect`);
      const params = oauth.validateAuthResponse(as, client, new URL(location), state);
      const redeem = async () => {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          REDIRECT_URI,
          verifier,
          {
            ...context.requestOptions(as.token_endpoint),
            ...(context.dpop === undefined ? {} : { DPoP: context.dpop }),
            additionalParameters: { resource: context.resource },
          },
        );
        return oauth.processAuthorizationCodeResponse(as, client, response);
      };
      try {
        return await redeem();
      } catch (error) {
        if (!oauth.isDPoPNonceError(error)) throw error;
        return redeem();
      }
    },
  };
}

/** The grant each scenario authorizes with, from its context. */
const GRANTS: Record<string, (context: Context) => Promise<ExtensionGrant> | ExtensionGrant> = {
  "auth/client-credentials-basic": (context) => clientCredentialsGrant({ client: secretClient(context) }),
  "auth/client-credentials-jwt": async (context) =>
    clientCredentialsGrant({
      client: {
        clientId: field(context, "client_id"),
        privateKey: await importPKCS8(field(context, "private_key_pem"), field(context, "signing_algorithm")),
      },
    }),
  "auth/enterprise-managed-authorization": (context) =>
    enterpriseManagedGrant({
      client: secretClient(context),
      idp: {
        issuer: field(context, "idp_issuer"),
        tokenEndpoint: field(context, "idp_token_endpoint"),
        client: { clientId: field(context, "idp_client_id") },
      },
      subjectToken: () => field(context, "idp_id_token"),
    }),
  "auth/wif-jwt-bearer": (context) =>
    jwtBearerGrant({
      client: { clientId: field(context, "client_id") },
      assertion: () => field(context, "valid_jwt"),
    }),
  "auth/dpop": () => headlessAuthorizationCode(),
  "auth/dpop-nonce": () => headlessAuthorizationCode(),
};

/** Whether `scenario` is one of the auth extension scenarios this module runs. */
export function isAuthExtensionScenario(scenario: string): boolean {
  return Object.hasOwn(GRANTS, scenario);
}

/**
 * Runs one auth extension scenario against the mock server at `url`: connects with the scenario's
 * grant, lists the tools and calls each one.
 *
 * @throws when the flow fails (the scenario then fails).
 */
export async function runAuthExtensionScenario(
  scenario: string,
  url: string,
  era: "2026-07-28" | "legacy",
): Promise<void> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const context = raw === undefined || raw === "" ? {} : (JSON.parse(raw) as Context);
  const makeGrant = GRANTS[scenario];
  if (makeGrant === undefined) throw new Error(`no auth extension scenario ${scenario}`);
  const auth = new GrantAuthorization({ grant: await makeGrant(context) });
  const client = await Client.connect(new HttpClientTransport(url, { auth }), {
    protocolVersion: era,
    clientInfo: { name: "tsmcp-conformance-client", version: "0.1.0" },
    timeoutMs: 20_000,
  });
  try {
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool(tool.name, {});
    process.stderr.write(`[client] scenario ${scenario}: called ${tools.length} tool(s)\n`);
  } finally {
    await client.close();
  }
}
