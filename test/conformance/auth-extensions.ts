/**
 * The everything-client's auth extension scenarios: client credentials (client_secret_basic and
 * private_key_jwt), enterprise-managed authorization (ID-JAG token exchange + JWT bearer grant),
 * DPoP-bound tokens (with and without server nonces) and workload identity federation (JWT
 * bearer). Each connects through a `GrantAuthorization` built from `MCP_CONFORMANCE_CONTEXT`, lists
 * the tools and calls each one, so every request carries the token (and, for DPoP, a fresh proof).
 *
 * The DPoP scenarios authorize a user with `OAuthClientProvider` (the authorization code grant with
 * PKCE, Dynamic Client Registration) asked for DPoP-bound tokens; its user's step is headless.
 */
import { importPKCS8 } from "jose";
import { Client } from "tsmcp/client";
import {
  type ClientIdentity,
  clientCredentialsGrant,
  type ExtensionGrant,
  enterpriseManagedGrant,
  GrantAuthorization,
  jwtBearerGrant,
  OAuthClientProvider,
} from "tsmcp/client/auth";
import { type HttpClientAuth, HttpClientTransport } from "tsmcp/transport";

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

/**
 * The issuer of the authorization server a client's credentials belong to. An application is
 * configured with it; these scenarios name it only for pre-registration, so it is read from the
 * mock server's Protected Resource Metadata (RFC 9728 §3.1, path-suffixed well-known URL).
 */
async function issuerOf(context: Context, url: string): Promise<string> {
  if (typeof context.issuer === "string" && context.issuer !== "") return context.issuer;
  const server = new URL(url);
  const answer = await fetch(`${server.origin}/.well-known/oauth-protected-resource${server.pathname}`);
  const metadata = (await answer.json()) as { authorization_servers?: unknown };
  const [issuer] = Array.isArray(metadata.authorization_servers) ? metadata.authorization_servers : [];
  if (typeof issuer !== "string")
    throw new Error(`the protected resource metadata of ${url} names no issuer`);
  return issuer;
}

async function secretClient(context: Context, url: string): Promise<ClientIdentity> {
  return {
    clientId: field(context, "client_id"),
    clientSecret: field(context, "client_secret"),
    issuer: await issuerOf(context, url),
  };
}

/** The grant each scenario authorizes with, from its context and the mock server's URL. */
const GRANTS: Record<string, (context: Context, url: string) => Promise<ExtensionGrant> | ExtensionGrant> = {
  "auth/client-credentials-basic": async (context, url) =>
    clientCredentialsGrant({ client: await secretClient(context, url) }),
  "auth/client-credentials-jwt": async (context, url) =>
    clientCredentialsGrant({
      client: {
        clientId: field(context, "client_id"),
        privateKey: await importPKCS8(field(context, "private_key_pem"), field(context, "signing_algorithm")),
        issuer: await issuerOf(context, url),
      },
    }),
  "auth/enterprise-managed-authorization": async (context, url) =>
    enterpriseManagedGrant({
      client: await secretClient(context, url),
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
};

/** The DPoP scenarios: a user's authorization (the authorization code grant), DPoP-bound. */
const DPOP_SCENARIOS = new Set(["auth/dpop", "auth/dpop-nonce"]);

/**
 * The user's step, headless: GET the authorization URL without following the redirect and take
 * the callback URL (with `code`, `state`, `iss`) from `Location`.
 */
async function headlessRedirect(url: URL): Promise<string> {
  const answer = await fetch(url, { redirect: "manual" });
  await answer.body?.cancel();
  const location = answer.headers.get("location");
  if (location === null)
    throw new Error(`the authorization endpoint answered ${answer.status} without a redirect`);
  return location;
}

/** Whether `scenario` is one of the auth extension scenarios this module runs. */
export function isAuthExtensionScenario(scenario: string): boolean {
  return Object.hasOwn(GRANTS, scenario) || DPOP_SCENARIOS.has(scenario);
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
  let auth: HttpClientAuth;
  if (makeGrant !== undefined) auth = new GrantAuthorization({ grant: await makeGrant(context, url) });
  else if (DPOP_SCENARIOS.has(scenario))
    auth = new OAuthClientProvider({ redirectUri: REDIRECT_URI, redirect: headlessRedirect, dpop: true });
  else throw new Error(`no auth extension scenario ${scenario}`);
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
