/**
 * `OAuthClientProvider`: OAuth for the HTTP client transport. It answers the transport's two
 * questions: which headers a request carries (the access token, refreshed first when it has
 * expired) and what to do with a 401/403 challenge (discover the authorization server, identify the
 * client, obtain tokens through its grant, refresh, step up the scope), then keeps what it got in
 * its {@link TokenStore}, keyed by issuer and resource. Spec: basic/authorization (§Authorization
 * Flow Steps, §Scope Selection Strategy, §Refresh Tokens, §Scope Challenge Handling),
 * basic/authorization/authorization-server-discovery, basic/authorization/client-registration.
 */
import type * as oauth from "oauth4webapi";
import type { Logger } from "../../protocol/logger.js";
import {
  checkFunction,
  checkInteger,
  checkObject,
  checkOptionsObject,
  checkString,
} from "../../protocol/options.js";
import {
  type HttpAuthChallenge,
  type HttpAuthRequest,
  type HttpClientAuth,
  MAX_AUTH_RETRIES,
} from "../../transport/http/client/client-auth.js";
import { AuthorizationCodeGrant, absoluteUrl, type RedirectHandler } from "./authorization-code.js";
import { type AuthChallenge, authChallengeOf } from "./challenge.js";
import { discoverAuthorizationServer, discoverResource, type ResourceMetadata } from "./discovery.js";
import { checkDPoPOption, type DPoPOption, type DPoPProver, proverFor } from "./extensions/dpop.js";
import type { OAuthGrant } from "./grant.js";
import {
  DEFAULT_OAUTH_MAX_RESPONSE_BYTES,
  isNamedFailure,
  type OAuthHttp,
  requestOptions,
  stepFailure,
} from "./http.js";
import { refreshTokens, tokensFrom } from "./refresh.js";
import {
  type ClientPrivateKey,
  type IdentifiedClient,
  identifyClient,
  type PreRegisteredClient,
} from "./registration.js";
import {
  InMemoryTokenStore,
  type OAuthTokens,
  type TokenKey,
  type TokenStore,
  tokenKeyString,
} from "./token-store.js";

/** Step-up re-authorizations for one request, after its first answer, by default: 2. */
export const DEFAULT_MAX_STEP_UPS = 2;
/** An access token this close to its expiry (milliseconds) is refreshed before it is sent: 30 000. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;
/** The `client_name` registered when none is given. */
export const DEFAULT_CLIENT_NAME = "tsmcp client";

/** Options of an {@link OAuthClientProvider}. */
export interface OAuthClientProviderOptions {
  /**
   * Where the authorization server sends the user back (authorization code grant). Given with
   * `redirect`; or give `grant` instead.
   */
  redirectUri?: string;
  /** The user's step of the authorization code grant (see {@link RedirectHandler}). */
  redirect?: RedirectHandler;
  /** Another way to obtain tokens than the authorization code grant (instead of `redirectUri` + `redirect`). */
  grant?: OAuthGrant;
  /** Credentials from a pre-registration; used before anything else. */
  client?: PreRegisteredClient;
  /**
   * The `https://` URL (with a path) of this client's Client ID Metadata Document: used as
   * `client_id` with an authorization server that advertises `client_id_metadata_document_supported`.
   */
  clientMetadataUrl?: string;
  /** The key for `private_key_jwt` with the metadata document's client id. */
  privateKey?: ClientPrivateKey;
  /** The `client_name` for Dynamic Client Registration. Default {@link DEFAULT_CLIENT_NAME}. */
  clientName?: string;
  /** Where tokens and registrations are kept. Default: a new {@link InMemoryTokenStore}. */
  tokenStore?: TokenStore;
  /** The `fetch` for requests to the authorization server and metadata. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * The most bytes of one answer read from the protected resource or the authorization server
   * (protected resource metadata, authorization server metadata, a registration or token
   * response), a positive integer: a larger one fails with `OAuthResponseTooLargeError` (a
   * `Content-Length` over it before any of the body is read; otherwise reading stops at the
   * limit). Default {@link DEFAULT_OAUTH_MAX_RESPONSE_BYTES} (1 MiB).
   */
  maxResponseBytes?: number;
  /**
   * How many times one request may re-authorize for a 403 `insufficient_scope` before its answer
   * stands (a 401 retry does not count; 0: never). A non-negative integer. Default
   * {@link DEFAULT_MAX_STEP_UPS} (2).
   */
  maxStepUps?: number;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449): a `DPoPProver` to prove with its key; true for a
   * fresh ES256 key; false never to. Default: a fresh ES256 key when the authorization server
   * lists ES256 in `dpop_signing_alg_values_supported`. Spec: SEP-1932.
   */
  dpop?: DPoPProver | boolean;
  /** Receives warnings (a refresh that failed); never a token. Default: none. */
  logger?: Pick<Logger, "warn">;
}

/** What the provider learned about one server: its resource, authorization server, and client. */
interface ServerContext {
  readonly resource: ResourceMetadata;
  readonly as: oauth.AuthorizationServer;
  readonly identified: IdentifiedClient;
  readonly key: TokenKey;
}

/**
 * OAuth 2.1 for connecting to a protected MCP server; pass it as `auth` to `Client.connect` (or an
 * `HttpClientTransport`).
 *
 * ```ts
 * const auth = new OAuthClientProvider({
 *   redirectUri: "http://127.0.0.1:8765/callback",
 *   redirect: async (url) => openBrowserAndWaitForCallback(url), // resolves with the callback URL
 *   clientMetadataUrl: "https://app.example.com/oauth/client.json",
 *   tokenStore: new FileTokenStore(`${homedir()}/.config/my-cli/tokens.json`),
 * });
 * const client = await Client.connect("https://mcp.example.com/mcp", { auth });
 * ```
 *
 * On a 401 it reads the challenge, fetches the Protected Resource Metadata (checking it is this
 * server's) and the authorization server's metadata (checking its issuer), identifies the client
 * (pre-registered, metadata document, or Dynamic Client Registration, remembered per issuer), and
 * obtains tokens through its grant (the authorization code grant with PKCE and `resource`, scope
 * from the challenge, else the resource's `scopes_supported`, else none; `offline_access` added
 * when the authorization server lists it); a refresh token is used first when there is one, and a
 * rotated one replaces it. On a 403 `insufficient_scope` it re-authorizes with the union of the
 * scopes held and those challenged, at most `maxStepUps` times per request. An authorization server
 * that changes is followed (tokens and registrations are per issuer). The DELETE that closes a
 * 2025-era session is never held up by the user's step (a refresh at most). Tokens are never logged.
 */
export class OAuthClientProvider implements HttpClientAuth {
  readonly #grant: OAuthGrant;
  readonly #store: TokenStore;
  readonly #fetch: typeof fetch;
  readonly #maxResponseBytes: number;
  readonly #maxStepUps: number;
  readonly #logger: Pick<Logger, "warn"> | undefined;
  readonly #dpopOption: DPoPOption;
  /** The DPoP key, once the first authorization server that takes one is met. */
  #prover: DPoPProver | undefined;
  readonly #registration: {
    clientName: string;
    clientMetadataUrl?: string;
    preRegistered?: PreRegisteredClient;
    privateKey?: ClientPrivateKey;
  };
  /** By server URL: what discovery found. */
  readonly #servers = new Map<string, ServerContext>();
  /** By issuer (as the resource metadata names it): metadata and client identity. */
  readonly #issuers = new Map<string, { as: oauth.AuthorizationServer; identified: IdentifiedClient }>();
  /** The access token each request in flight was last sent with (keyed by its signal). */
  readonly #sent = new WeakMap<AbortSignal, string | undefined>();
  /** How many times each request in flight (keyed by its signal) has stepped up on a 403. */
  readonly #stepUps = new WeakMap<AbortSignal, number>();
  /** By token key: the authorization or refresh in progress, which concurrent requests await. */
  readonly #pending = new Map<string, Promise<boolean>>();

  /**
   * @throws TypeError when neither `grant` nor `redirectUri` + `redirect` is given (or both are),
   *   `client` has no `clientId` (or a `clientSecret` or `privateKey` without its `issuer`), `clientMetadataUrl` is not an `https://` URL with a path, or an
   *   option has the wrong type;
   *   RangeError when `maxStepUps` is not a non-negative integer, or `maxResponseBytes` not a
   *   positive one.
   */
  constructor(options: OAuthClientProviderOptions) {
    const owner = "OAuthClientProvider";
    checkOptionsObject(owner, options);
    const { grant, redirectUri, redirect, client, clientMetadataUrl, privateKey, clientName } = options;
    if (grant !== undefined && (redirectUri !== undefined || redirect !== undefined)) {
      throw new TypeError(`${owner}: give either "grant" or "redirectUri" and "redirect", not both`);
    }
    if (grant === undefined) {
      if (redirectUri === undefined || redirect === undefined) {
        throw new TypeError(
          `${owner}: give "redirectUri" and "redirect" (the authorization code grant), or "grant"`,
        );
      }
      this.#grant = new AuthorizationCodeGrant({ redirectUri, redirect });
    } else {
      if (typeof grant?.obtain !== "function" || !Array.isArray(grant.grantTypes)) {
        throw new TypeError(
          `${owner} option "grant" must be an OAuthGrant (grantTypes, redirectUris, obtain())`,
        );
      }
      this.#grant = grant;
    }
    checkObject(owner, "client", client);
    if (client !== undefined && (typeof client.clientId !== "string" || client.clientId === "")) {
      throw new TypeError(`${owner} option "client.clientId" must be a non-empty string`);
    }
    checkString(owner, "client.issuer", client?.issuer);
    if (
      client !== undefined &&
      client.issuer === undefined &&
      (client.clientSecret !== undefined || client.privateKey !== undefined)
    ) {
      throw new TypeError(
        `${owner} option "client.issuer" is required with a clientSecret or privateKey: the credentials ` +
          "are sent only to the authorization server they were issued by",
      );
    }
    if (clientMetadataUrl !== undefined) {
      const url = new URL(absoluteUrl(owner, "clientMetadataUrl", clientMetadataUrl));
      if (url.protocol !== "https:" || url.pathname === "/") {
        throw new TypeError(`${owner} option "clientMetadataUrl" must be an https:// URL with a path`);
      }
    }
    checkObject(owner, "privateKey", privateKey);
    checkString(owner, "clientName", clientName);
    checkObject(owner, "tokenStore", options.tokenStore);
    checkFunction(owner, "fetch", options.fetch);
    checkInteger(owner, "maxStepUps", options.maxStepUps);
    checkInteger(owner, "maxResponseBytes", options.maxResponseBytes, { min: 1, unit: "bytes" });
    this.#dpopOption = checkDPoPOption(owner, options.dpop);
    this.#registration = {
      clientName: clientName ?? DEFAULT_CLIENT_NAME,
      ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
      ...(client === undefined ? {} : { preRegistered: client }),
      ...(privateKey === undefined ? {} : { privateKey }),
    };
    this.#store = options.tokenStore ?? new InMemoryTokenStore();
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_OAUTH_MAX_RESPONSE_BYTES;
    this.#maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
    this.#logger = options.logger;
  }

  /** {@inheritDoc transport!HttpClientAuth.headers} */
  async headers(request: HttpAuthRequest): Promise<Record<string, string>> {
    const tokens = await this.#currentTokens(request);
    this.#sent.set(request.signal, tokens?.accessToken);
    if (tokens === undefined) return {};
    if (tokens.tokenType.toLowerCase() === "dpop" && this.#prover !== undefined) {
      return this.#prover.resourceHeaders(tokens.accessToken, request.method, request.url);
    }
    return { authorization: `Bearer ${tokens.accessToken}` };
  }

  /** {@inheritDoc transport!HttpClientAuth.onChallenge} */
  async onChallenge(challenge: HttpAuthChallenge): Promise<boolean> {
    const parsed = await authChallengeOf(challenge.status, challenge.header("www-authenticate"));
    if (parsed?.error === "use_dpop_nonce") {
      // The resource server wants its nonce in the proof (RFC 9449 §9): send again with it.
      const nonce = challenge.header("dpop-nonce");
      if (nonce === null || this.#prover === undefined || challenge.attempt >= MAX_AUTH_RETRIES - 1)
        return false;
      await this.#prover.takeNonce(challenge.url, nonce);
      return true;
    }
    const http = this.#http(challenge.signal);
    const sent = this.#sent.get(challenge.signal);
    // Closing a session (DELETE) never asks the user: a refresh at most.
    const mayAsk = challenge.method !== "DELETE";
    if (challenge.status === 403) {
      // Only the 403 step-ups count, not the 401 retries before them: maxStepUps 0 allows none.
      const stepUps = this.#stepUps.get(challenge.signal) ?? 0;
      if (parsed?.error !== "insufficient_scope" || stepUps >= this.#maxStepUps || !mayAsk) return false;
      this.#stepUps.set(challenge.signal, stepUps + 1);
      const server =
        this.#servers.get(challenge.url.href) ?? (await this.#discover(http, challenge.url, parsed));
      const held = await this.#store.getTokens(server.key);
      // Another request already stepped up: try what it got.
      if (held !== undefined && held.accessToken !== sent) return true;
      return this.#once(server, () => this.#authorize(http, server, union(held?.scope, parsed.scope)));
    }
    // A 401: discovery runs again (the authorization server may have moved).
    if (challenge.attempt >= 2) return false;
    const server = await this.#discover(http, challenge.url, parsed);
    const held = await this.#store.getTokens(server.key);
    if (held !== undefined && held.accessToken !== sent) return true;
    return this.#once(server, async () => {
      if (
        held?.refreshToken !== undefined &&
        challenge.attempt === 0 &&
        (await this.#refresh(http, server, held))
      ) {
        return true;
      }
      return mayAsk && this.#authorize(http, server, this.#scopeFor(server, parsed, held));
    });
  }

  /** The tokens to send to `request.url`, refreshed first when they are about to expire. */
  async #currentTokens(request: HttpAuthRequest): Promise<OAuthTokens | undefined> {
    const server = this.#servers.get(request.url.href);
    if (server === undefined) return undefined;
    const tokens = await this.#store.getTokens(server.key);
    if (
      tokens?.refreshToken === undefined ||
      tokens.expiresAtMs === undefined ||
      tokens.expiresAtMs - TOKEN_REFRESH_MARGIN_MS > Date.now()
    ) {
      return tokens;
    }
    const http = this.#http(request.signal);
    await this.#once(server, () => this.#refresh(http, server, tokens));
    return this.#store.getTokens(server.key);
  }

  /** How the requests for one MCP request are made. */
  #http(signal: AbortSignal): OAuthHttp {
    return { fetch: this.#fetch, signal, maxResponseBytes: this.#maxResponseBytes };
  }

  /** Runs `work` for `server`'s tokens unless it already runs, in which case waits for that one. */
  async #once(server: ServerContext, work: () => Promise<boolean>): Promise<boolean> {
    const id = tokenKeyString(server.key);
    const running = this.#pending.get(id);
    if (running !== undefined) {
      await running.catch(() => {});
      return true;
    }
    const started = work();
    this.#pending.set(id, started);
    try {
      return await started;
    } finally {
      this.#pending.delete(id);
    }
  }

  /** Discovers (or re-discovers) the resource, its authorization server and the client's identity. */
  async #discover(http: OAuthHttp, url: URL, challenge: AuthChallenge | undefined): Promise<ServerContext> {
    const resource = await discoverResource(http, url, challenge?.resourceMetadata);
    const issuer = resource.authorization_servers[0] as string;
    let known = this.#issuers.get(issuer);
    if (known === undefined) {
      const as = await discoverAuthorizationServer(http, issuer);
      const identified = await identifyClient(
        http,
        as,
        { ...this.#registration, redirectUris: this.#grant.redirectUris, grantTypes: this.#grant.grantTypes },
        this.#store,
      );
      known = { as, identified };
      this.#issuers.set(issuer, known);
    }
    const server: ServerContext = {
      resource,
      as: known.as,
      identified: known.identified,
      key: { issuer: known.as.issuer, resource: resource.resource },
    };
    this.#servers.set(url.href, server);
    return server;
  }

  /**
   * The scopes of a first (or renewed) authorization: the challenge's, else the resource's
   * `scopes_supported`, else none; joined with those held before; `offline_access` added when the
   * authorization server lists it and the grant uses refresh tokens.
   */
  #scopeFor(
    server: ServerContext,
    challenge: AuthChallenge | undefined,
    held: OAuthTokens | undefined,
  ): string | undefined {
    const wanted = challenge?.scope ?? server.resource.scopes_supported?.join(" ");
    let scope = union(held?.scope, wanted === "" ? undefined : wanted);
    if (
      scope !== undefined &&
      this.#grant.grantTypes.includes("refresh_token") &&
      server.as.scopes_supported?.includes("offline_access")
    ) {
      scope = union(scope, "offline_access");
    }
    return scope;
  }

  /** Obtains tokens through the grant and keeps them. */
  async #authorize(http: OAuthHttp, server: ServerContext, scope: string | undefined): Promise<boolean> {
    const { as, identified, resource } = server;
    this.#prover = await proverFor(this.#dpopOption, as, this.#prover);
    const response = await this.#grant.obtain({
      as,
      client: identified.client,
      clientAuth: identified.auth,
      resource: resource.resource,
      scope,
      ...(this.#prover === undefined ? {} : { dpop: this.#prover.handle }),
      http,
      requestOptions: (url) => requestOptions(http, url),
    });
    await this.#store.setTokens(server.key, tokensFrom(response, scope, undefined));
    return true;
  }

  /** Refreshes `tokens`; false (and the tokens forgotten) when the authorization server refuses. */
  async #refresh(http: OAuthHttp, server: ServerContext, tokens: OAuthTokens): Promise<boolean> {
    const { as, identified, resource } = server;
    try {
      const dpop = tokens.tokenType.toLowerCase() === "dpop" ? this.#prover?.handle : undefined;
      const refreshed = await refreshTokens(http, as, identified, resource.resource, tokens, dpop);
      await this.#store.setTokens(server.key, refreshed);
      return true;
    } catch (error) {
      // An answer too large, a timeout or an unreachable token endpoint is not a refusal: authorizing
      // again would not help, and the tokens held stay.
      if (isNamedFailure(error)) throw error;
      if (http.signal.aborted) throw stepFailure(http, "the token refresh", http.signal.reason);
      this.#logger?.warn(`OAuth: refreshing the access token at ${as.issuer} failed; authorizing again`, {
        error: error instanceof Error ? error.message : String(error),
      });
      await this.#store.setTokens(server.key, undefined);
      return false;
    }
  }
}

/** The union of two space-separated scope lists, in first-seen order; undefined when both are empty. */
export function union(a: string | undefined, b: string | undefined): string | undefined {
  const scopes = new Set([...(a ?? "").split(" "), ...(b ?? "").split(" ")].filter((s) => s !== ""));
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}
