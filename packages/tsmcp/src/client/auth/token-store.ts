/**
 * Where the OAuth layer keeps what it obtained: tokens, keyed by the authorization server's issuer
 * and the resource they are for, and the client registrations it made, keyed by issuer (a
 * registration is never used with another authorization server). The default keeps them in memory
 * for the life of the provider; `FileTokenStore` keeps them in a file for command-line use.
 * Spec: basic/authorization/client-registration §Authorization Server Binding, basic/authorization
 * §Refresh Tokens (kept confidential in storage).
 */

/** Tokens from a token endpoint, as the client keeps them. */
export interface OAuthTokens {
  /** The access token, sent on every request. */
  readonly accessToken: string;
  /** Its type as the token endpoint said (`Bearer`, `DPoP`). */
  readonly tokenType: string;
  /** The refresh token, when one was issued (a rotated one replaces it). */
  readonly refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch; absent when not said. */
  readonly expiresAtMs?: number;
  /** The scopes granted (or, when the token endpoint did not say, requested), space-separated. */
  readonly scope?: string;
}

/** What tokens are for: an authorization server (by issuer) and a resource (RFC 8707). */
export interface TokenKey {
  /** The authorization server's `issuer`. */
  readonly issuer: string;
  /** The protected resource, as its metadata's `resource` says. */
  readonly resource: string;
}

/** A client registration with one authorization server (Dynamic Client Registration's answer). */
export interface StoredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly token_endpoint_auth_method?: string;
  readonly [field: string]: unknown;
}

/**
 * Keeps tokens and client registrations. Each method may answer synchronously or with a promise.
 * Implementations must keep them confidential (no logging, owner-only storage).
 */
export interface TokenStore {
  /** The tokens for `key`, or undefined. */
  getTokens(key: TokenKey): OAuthTokens | undefined | Promise<OAuthTokens | undefined>;
  /** Keeps `tokens` for `key`; undefined forgets them. */
  setTokens(key: TokenKey, tokens: OAuthTokens | undefined): void | Promise<void>;
  /** The registration made with the authorization server `issuer`, or undefined. */
  getClient(issuer: string): StoredClient | undefined | Promise<StoredClient | undefined>;
  /** Keeps the registration made with `issuer`; undefined forgets it. */
  setClient(issuer: string, client: StoredClient | undefined): void | Promise<void>;
}

/** The map key of a {@link TokenKey}. */
export function tokenKeyString(key: TokenKey): string {
  return JSON.stringify([key.issuer, key.resource]);
}

/** A {@link TokenStore} in memory: what it holds lasts as long as it does. */
export class InMemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, OAuthTokens>();
  readonly #clients = new Map<string, StoredClient>();

  getTokens(key: TokenKey): OAuthTokens | undefined {
    return this.#tokens.get(tokenKeyString(key));
  }

  setTokens(key: TokenKey, tokens: OAuthTokens | undefined): void {
    if (tokens === undefined) this.#tokens.delete(tokenKeyString(key));
    else this.#tokens.set(tokenKeyString(key), tokens);
  }

  getClient(issuer: string): StoredClient | undefined {
    return this.#clients.get(issuer);
  }

  setClient(issuer: string, client: StoredClient | undefined): void {
    if (client === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, client);
  }
}
