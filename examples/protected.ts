/**
 * A protected MCP server: it accepts only access tokens its authorization server issued for it,
 * verified as JWTs against the issuer's published keys, publishes its protected resource metadata
 * so clients can find that server, and has a tool that needs a scope the others do not. Every
 * handler sees who is calling on `ctx.auth`, and a pending `requestState` only continues for the
 * user it was minted for.
 *
 * Run it: `npm run example -- protected`.
 * - With `MCP_ISSUER` set (the issuer URL of your authorization server, with its path:
 *   `https://id.example.com/realms/notes`), it serves on $HOST:$PORT (default 127.0.0.1:3000) at
 *   the path of `MCP_RESOURCE` until interrupted, and prints where it listens. Optional:
 *   `MCP_RESOURCE` (the URL clients use, the tokens' audience; default
 *   `http://127.0.0.1:$PORT/mcp`; its hostname is accepted in `Host` besides loopback),
 *   `MCP_JWKS_URI` (default: the `jwks_uri` of the issuer's metadata, found at the RFC 8414
 *   well-known URL, else the OpenID Connect one).
 * - Without it, it runs a self-contained demo and exits: a local authorization server
 *   (`oidc-provider`) issues tokens for two users, and a client walks through the challenges.
 */
import { createServer } from "node:net";
import { Client } from "tsmcp/client";
import { type HttpServerHandle, serve } from "tsmcp/node";
import { bearerAuth, jwtVerifier, MCPServer, protectedResourceMetadata } from "tsmcp/server";
import { DEFAULT_ALLOWED_HOSTS, HttpClientTransport, resourceMetadataUrl } from "tsmcp/transport";
import * as z from "zod";

/** The scope every request needs, and the one writing needs. */
export const READ = "notes:read";
export const WRITE = "notes:write";

/** Builds the notes server: `list-notes` for anyone with a token, `add-note` only with `notes:write`. */
export function createNotesServer(): MCPServer {
  const notes: { author: string; text: string }[] = [];
  const mcp = new MCPServer("notes", { version: "1.0.0" });
  mcp.tool("list-notes", { description: "Lists the notes." }, (_args, ctx) =>
    notes.length === 0
      ? `No notes yet, ${ctx.auth?.subject}.`
      : notes.map((note) => `${note.author}: ${note.text}`).join("\n"),
  );
  mcp.tool(
    "add-note",
    {
      description: "Adds a note, signed with the caller's identity.",
      inputSchema: z.object({ text: z.string().min(1) }),
      requiredScopes: [WRITE],
    },
    ({ text }, ctx) => {
      notes.push({ author: ctx.auth?.subject ?? "unknown", text });
      return `Added a note for ${ctx.auth?.subject}.`;
    },
  );
  return mcp;
}

/**
 * Serves `mcp` at `resource` behind bearer tokens from `issuer`, publishing its metadata. Requests
 * may name the resource's hostname in `Host` (the public name behind a proxy), besides loopback.
 */
export function serveProtected(
  mcp: MCPServer,
  options: { issuer: string; jwksUri: string; resource: string; port: number; host?: string },
): Promise<HttpServerHandle> {
  const { issuer, jwksUri, resource, port, host } = options;
  const url = new URL(resource);
  return serve(mcp, {
    port,
    ...(host === undefined ? {} : { host }),
    path: url.pathname,
    allowedHosts: [...new Set([...DEFAULT_ALLOWED_HOSTS, url.hostname])],
    authenticate: bearerAuth({
      verifier: jwtVerifier({ issuer, audience: resource, jwksUri }),
      requiredScopes: [READ],
      resourceMetadataUrl: resourceMetadataUrl(resource),
    }),
    protectedResourceMetadata: protectedResourceMetadata({
      resource,
      authorizationServers: [issuer],
      scopesSupported: [READ, WRITE],
      resourceName: "Notes",
    }),
  });
}

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Where an authorization server publishes its metadata, in the order to try: RFC 8414 §3.1 inserts
 * `/.well-known/oauth-authorization-server` between the host and the issuer's path
 * (`https://id.example.com/realms/notes` ->
 * `https://id.example.com/.well-known/oauth-authorization-server/realms/notes`), then OpenID
 * Connect Discovery, inserted the same way, then appended to the issuer (Keycloak, Okta
 * `/oauth2/default`). Spec: basic/authorization §Authorization Server Metadata Discovery.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  const at = (wellKnown: string) => new URL(`/.well-known/${wellKnown}${path}`, url.origin).href;
  if (path === "") return [at("oauth-authorization-server"), at("openid-configuration")];
  return [
    at("oauth-authorization-server"),
    at("openid-configuration"),
    new URL(`${url.origin}${path}/.well-known/openid-configuration`).href,
  ];
}

/** The `jwks_uri` of `issuer`'s metadata, from the first well-known URL that answers it. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const tried = authorizationServerMetadataUrls(issuer);
  for (const url of tried) {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json()) as { jwks_uri?: unknown };
    if (typeof metadata.jwks_uri === "string") return metadata.jwks_uri;
  }
  throw new Error(`no jwks_uri at ${tried.join(", ")}; set MCP_JWKS_URI`);
}

/** Serves against a configured authorization server until interrupted. */
async function serveConfigured(issuer: string): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  const resource = process.env.MCP_RESOURCE ?? `http://127.0.0.1:${port}/mcp`;
  const jwksUri = process.env.MCP_JWKS_URI ?? (await discoverJwksUri(issuer));
  const handle = await serveProtected(createNotesServer(), {
    issuer,
    jwksUri,
    resource,
    port,
    ...(host === undefined || host === "" ? {} : { host }),
  });
  console.log(`notes listening on ${handle.url} (resource ${resource}) for tokens from ${issuer}`);
  await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
  await handle.close();
}

/** A local authorization server for the demo: one client, JWT access tokens for any resource. */
async function startDemoAuthorizationServer() {
  const { default: Provider } = await import("oidc-provider");
  const { exportJWK, generateKeyPair } = await import("jose");
  const { createServer: createHttpServer } = await import("node:http");
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      { client_id: "notes-app", client_secret: "demo-secret", redirect_uris: ["http://127.0.0.1/cb"] },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "demo", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["demo-cookie-key"] },
    ttl: { AccessToken: 600, Grant: 600 },
    features: { devInteractions: { enabled: false } },
  });
  const server = createHttpServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  /** What the authorization-code flow would give `user`: here minted directly. */
  async function issue(user: string, resource: string, scopes: string[]): Promise<string> {
    const client = await provider.Client.find("notes-app");
    if (client === undefined) throw new Error("the demo client is not registered");
    const grant = new provider.Grant({ accountId: user, clientId: "notes-app" });
    grant.addResourceScope(resource, scopes.join(" "));
    const token = new provider.AccessToken({
      accountId: user,
      client,
      grantId: await grant.save(),
      gty: "authorization_code",
      scope: scopes.join(" "),
      resourceServer: { audience: resource, scope: scopes.join(" "), accessTokenFormat: "jwt" },
    });
    return token.save();
  }
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { issuer, jwksUri: `${issuer}/jwks`, issue, close };
}

/** The self-contained demo: prints what a client meets, step by step, then exits. */
async function demo(): Promise<void> {
  const as = await startDemoAuthorizationServer();
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const handle = await serveProtected(createNotesServer(), { ...as, resource, port });
  const clients: Client[] = [];
  try {
    console.log(`notes listening on ${handle.url}`);
    const anonymous = await fetch(resource, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    console.log(`without a token: ${anonymous.status} ${anonymous.headers.get("www-authenticate")}`);
    const metadata = (await (await fetch(resourceMetadataUrl(resource))).json()) as {
      authorization_servers: string[];
    };
    console.log(
      `metadata names the authorization server: ${metadata.authorization_servers[0] === as.issuer}`,
    );

    const connect = async (token: string) => {
      const transport = new HttpClientTransport(resource, { headers: { Authorization: `Bearer ${token}` } });
      const client = await Client.connect(transport);
      clients.push(client);
      return client;
    };
    const readOnly = await connect(await as.issue("alice", resource, [READ]));
    console.log(`alice (${READ}): ${textOf(await readOnly.callTool("list-notes"))}`);
    const refused = await readOnly
      .callTool("add-note", { text: "hello" })
      .catch((error: Error) => error.message);
    console.log(`alice (${READ}) adds a note: ${String(refused)}`);
    const writer = await connect(await as.issue("alice", resource, [READ, WRITE]));
    console.log(`alice (${READ} ${WRITE}): ${textOf(await writer.callTool("add-note", { text: "hello" }))}`);
    const bob = await connect(await as.issue("bob", resource, [READ]));
    console.log(`bob (${READ}): ${textOf(await bob.callTool("list-notes"))}`);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await handle.close();
    await as.close();
  }
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

export async function main(_args: string[]): Promise<void> {
  const issuer = process.env.MCP_ISSUER;
  if (issuer === undefined || issuer === "") await demo();
  else await serveConfigured(issuer);
}
