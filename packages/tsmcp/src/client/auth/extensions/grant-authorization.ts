/**
 * Authorization for a client that obtains its tokens without a user at a browser: on the server's
 * 401 it discovers the authorization server, runs its grant (client credentials, a JWT bearer
 * assertion, enterprise-managed authorization), and presents the token on every request to the
 * resource it was obtained for (never to another), as a Bearer token or, sender-constrained, with
 * a DPoP proof; a resource server's `use_dpop_nonce` challenge is answered with a new proof
 * carrying its nonce. Spec: basic/authorization §Access
 * Token Usage; ext-auth oauth-client-credentials, enterprise-managed-authorization; SEP-1932,
 * SEP-1933; RFC 9449 §7, §9.
 */
import type * as oauth from "oauth4webapi";
import {
  checkFunction,
  checkOptionsObject,
  checkString,
  isObject,
  optionTypeError,
} from "../../../protocol/options.js";
import type {
  HttpAuthChallenge,
  HttpAuthRequest,
  HttpClientAuth,
} from "../../../transport/http/client/client-auth.js";
import { type AuthChallenge, authChallengeOf } from "../challenge.js";
import { discoverAuthorizationServer, discoverResource } from "../discovery.js";
import { type OAuthHttp, requestOptions } from "../http.js";
import { checkDPoPOption, type DPoPOption, type DPoPProver, proverFor } from "./dpop.js";
import type { ExtensionGrant, ExtensionGrantContext } from "./grant.js";

/** How long before its stated expiry a token is no longer sent but replaced: 30 s. */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;

/** The options of {@link GrantAuthorization}. */
export interface GrantAuthorizationOptions {
  /** How tokens are obtained. */
  grant: ExtensionGrant;
  /**
   * The scopes to request, space-separated. Default: the challenge's `scope`, else the resource
   * metadata's `scopes_supported`, else none (the parameter is omitted).
   */
  scope?: string;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449): a {@link DPoPProver} to prove with its key; true
   * for a fresh ES256 key; false never to. Default: a fresh ES256 key when the authorization
   * server's metadata lists ES256 in `dpop_signing_alg_values_supported`, else none.
   */
  dpop?: DPoPProver | boolean;
  /** The `fetch` for metadata and token requests. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** What the client learned about the resource and its authorization server. */
interface DiscoveredResource {
  /** The resource identifier, exactly as its metadata publishes it (the `resource` parameter). */
  readonly resource: string;
  /** The scopes its metadata lists, space-separated; undefined when it lists none. */
  readonly scopesSupported: string | undefined;
  /** The authorization server's validated metadata. */
  readonly as: oauth.AuthorizationServer;
}

/** The token in use. */
interface HeldToken {
  readonly accessToken: string;
  /** `bearer` or `dpop`, as the token endpoint said (lower case). */
  readonly tokenType: string;
  readonly expiresAtMs: number | undefined;
}

/** One resource's discovery, token and grant run in progress. */
interface ResourceState {
  discovered: { readonly url: string | undefined; readonly value: DiscoveredResource } | undefined;
  token: HeldToken | undefined;
  pending: Promise<HeldToken> | undefined;
}

/**
 * The key a token is held under: the URL's origin and path (no query or fragment). A token is only
 * ever sent to the resource it was obtained for (Spec: basic/authorization §Token Audience Binding).
 */
function resourceKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * An `HttpClientAuth` that runs an {@link ExtensionGrant}. Pass it as the HTTP client transport's
 * `auth`:
 *
 * ```ts
 * const auth = new GrantAuthorization({
 *   grant: clientCredentialsGrant({
 *     client: { clientId: "reporter", clientSecret, issuer: "https://auth.example.com" },
 *   }),
 * });
 * const client = await Client.connect(new HttpClientTransport(url, { auth }));
 * ```
 *
 * A grant's refusal fails the request with a `TransportError` ("authorization failed: ...") whose
 * cause is the `OAuthError`; it is not retried. Tokens are kept in memory only and never logged.
 */
export class GrantAuthorization implements HttpClientAuth {
  readonly #grant: ExtensionGrant;
  readonly #scope: string | undefined;
  readonly #dpopOption: DPoPOption;
  readonly #fetch: typeof fetch | undefined;
  #prover: DPoPProver | undefined;
  /** By resource (the request URL's origin and path): what was discovered and the token obtained for it. */
  readonly #resources = new Map<string, ResourceState>();
  /** The requests (by signal) that already obtained a token after a challenge: a second refusal stands. */
  readonly #obtainedFor = new WeakSet<AbortSignal>();
  /** The token each request (by signal) was last sent with; null for none. */
  readonly #sentWith = new WeakMap<AbortSignal, HeldToken | null>();

  /**
   * @throws TypeError when `grant` has no `obtain` method, `scope` is no string, `dpop` is no
   *   boolean or `DPoPProver`, or `fetch` is no function.
   */
  constructor(options: GrantAuthorizationOptions) {
    const owner = "GrantAuthorization";
    const { grant, scope, dpop, fetch: fetchOption } = checkOptionsObject(owner, options);
    if (!isObject(grant) || typeof grant.obtain !== "function")
      throw optionTypeError(owner, "grant", "an ExtensionGrant (an object with an obtain() method)");
    checkString(owner, "scope", scope);
    checkDPoPOption(owner, dpop);
    checkFunction(owner, "fetch", fetchOption);
    this.#grant = grant;
    this.#scope = scope;
    this.#dpopOption = dpop;
    this.#fetch = fetchOption;
  }

  /** The headers that present the current token; none before the server first asks for one. */
  async headers(request: HttpAuthRequest): Promise<Record<string, string>> {
    const state = this.#resources.get(resourceKey(request.url));
    let token = state?.token;
    if (
      state !== undefined &&
      token !== undefined &&
      token.expiresAtMs !== undefined &&
      token.expiresAtMs - TOKEN_EXPIRY_MARGIN_MS <= Date.now()
    ) {
      token = await this.#obtain(state, request.signal, undefined, undefined);
    }
    this.#sentWith.set(request.signal, token ?? null);
    return token === undefined ? {} : this.#present(token, request);
  }

  /**
   * A 401 obtains a token (once per request; a request sent with an older token than the current
   * one is simply sent again); a `use_dpop_nonce` 401 takes the server's `DPoP-Nonce` for the next
   * proof; a 403 `insufficient_scope` obtains a token for the scope it names (once per request).
   * Anything else lets the answer stand.
   *
   * @throws OAuthError when discovery or the grant fails.
   */
  async onChallenge(challenge: HttpAuthChallenge): Promise<boolean> {
    const said = await authChallengeOf(challenge.status, challenge.header("www-authenticate"));
    const key = resourceKey(challenge.url);
    let state = this.#resources.get(key);
    if (said?.error === "use_dpop_nonce") {
      const nonce = challenge.header("dpop-nonce");
      if (nonce === null || this.#prover === undefined || state?.token?.tokenType !== "dpop") return false;
      await this.#prover.takeNonce(challenge.url, nonce);
      return true;
    }
    if (this.#obtainedFor.has(challenge.signal) && challenge.attempt > 0) return false;
    let scope: string | undefined;
    if (challenge.status === 403) {
      if (said?.error !== "insufficient_scope" || said.scope === undefined) return false;
      scope = said.scope;
    } else {
      const sent = this.#sentWith.get(challenge.signal);
      if (
        state !== undefined &&
        (state.pending !== undefined ||
          (state.token !== undefined && sent !== undefined && sent !== state.token))
      ) {
        await state.pending;
        return true;
      }
    }
    if (state === undefined) {
      state = { discovered: undefined, token: undefined, pending: undefined };
      this.#resources.set(key, state);
    }
    this.#obtainedFor.add(challenge.signal);
    await this.#obtain(state, challenge.signal, scope ?? said?.scope, { url: challenge.url, said });
    return true;
  }

  /**
   * Discovers (the first time, or when the challenge names other metadata) and runs the grant,
   * one run at a time (concurrent callers share it), and keeps its token.
   */
  #obtain(
    state: ResourceState,
    signal: AbortSignal,
    challengeScope: string | undefined,
    from: { url: URL; said: AuthChallenge | undefined } | undefined,
  ): Promise<HeldToken> {
    state.pending ??= (async () => {
      const named = from?.said?.resourceMetadata;
      if (
        from !== undefined &&
        (state.discovered === undefined || (named !== undefined && named !== state.discovered.url))
      ) {
        const http = this.#http(signal);
        const metadata = await discoverResource(http, from.url, named);
        const scopes = metadata.scopes_supported;
        const value: DiscoveredResource = {
          resource: metadata.resource,
          scopesSupported: scopes === undefined || scopes.length === 0 ? undefined : scopes.join(" "),
          // The first authorization server the resource names (Spec: RFC 9728 §2 lets the client choose).
          as: await discoverAuthorizationServer(http, metadata.authorization_servers[0] as string),
        };
        state.discovered = { url: named, value };
      }
      return this.#runGrant(state, signal, challengeScope);
    })().finally(() => {
      state.pending = undefined;
    });
    return state.pending;
  }

  async #runGrant(
    state: ResourceState,
    signal: AbortSignal,
    challengeScope: string | undefined,
  ): Promise<HeldToken> {
    const discovered = state.discovered?.value;
    if (discovered === undefined) throw new Error("the server has not yet named its authorization server");
    const context: ExtensionGrantContext = {
      as: discovered.as,
      resource: discovered.resource,
      scope: this.#scope ?? challengeScope ?? discovered.scopesSupported,
      dpop: (await this.#dpopProver(discovered.as))?.handle,
      requestOptions: (url) => requestOptions(this.#http(signal), url),
    };
    const answer = await this.#grant.obtain(context);
    const token: HeldToken = {
      accessToken: answer.access_token,
      tokenType: answer.token_type,
      expiresAtMs: answer.expires_in === undefined ? undefined : Date.now() + answer.expires_in * 1000,
    };
    state.token = token;
    return token;
  }

  async #dpopProver(as: oauth.AuthorizationServer): Promise<DPoPProver | undefined> {
    this.#prover = await proverFor(this.#dpopOption, as, this.#prover);
    return this.#prover;
  }

  async #present(token: HeldToken, request: HttpAuthRequest): Promise<Record<string, string>> {
    if (token.tokenType === "dpop" && this.#prover !== undefined) {
      return this.#prover.resourceHeaders(token.accessToken, request.method, request.url);
    }
    return { authorization: `Bearer ${token.accessToken}` };
  }

  #http(signal: AbortSignal): OAuthHttp {
    return { fetch: this.#fetch ?? fetch, signal };
  }
}
