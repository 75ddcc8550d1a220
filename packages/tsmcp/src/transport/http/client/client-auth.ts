/**
 * The one place the HTTP client transport meets authorization: a small hook that adds credentials
 * to every request the transport sends (POST, the 2025-era GET stream, DELETE) and is shown the
 * server's 401/403 challenge, after which the request may be sent once more. The transport knows
 * nothing of OAuth; `tsmcp/client/auth`'s `OAuthClientProvider` is one implementation, a static bearer
 * token is another. Spec: basic/authorization §Access Token Usage (authorization on every HTTP
 * request), §Scope Challenge Handling; RFC 6750 §3 (the `WWW-Authenticate` challenge).
 */
import { TransportError } from "../../transport.js";
import type { HttpMethod, HttpSender } from "./http-answer.js";

/** Sends after a challenge, at most, per request, whatever the hook says: 4. */
export const MAX_AUTH_RETRIES = 4;

/** One HTTP request about to be sent, as the hook sees it. */
export interface HttpAuthRequest {
  /** The request's method. */
  readonly method: HttpMethod;
  /** The URL it goes to (the MCP endpoint). */
  readonly url: URL;
  /** Aborts with the request. */
  readonly signal: AbortSignal;
}

/** A 401 or 403 answer to a request, as the hook sees it (its body is not shown). */
export interface HttpAuthChallenge extends HttpAuthRequest {
  /** 401 (no or a bad credential) or 403 (a credential without enough scope). */
  readonly status: 401 | 403;
  /** A header of the answer, or null: `www-authenticate`, `dpop-nonce`, ...; name in lower case. */
  header(name: string): string | null;
  /** How many times this request was already re-sent after a challenge (0 for the first answer). */
  readonly attempt: number;
}

/**
 * Authorization for an HTTP client transport.
 *
 * ```ts
 * const staticToken: HttpClientAuth = {
 *   headers: () => ({ authorization: `Bearer ${token}` }),
 *   onChallenge: () => false,
 * };
 * ```
 */
export interface HttpClientAuth {
  /**
   * The headers to add to one request (`authorization`, and for DPoP a `dpop` proof, which is why
   * the method and URL are given). Called before each send, re-sends included. Names in any case;
   * they replace the transport's headers of the same name.
   *
   * @throws anything: the request then fails with a `TransportError` "authorization failed: ..."
   *   whose `cause` is the error.
   */
  headers(request: HttpAuthRequest): Record<string, string> | Promise<Record<string, string>>;
  /**
   * The server answered 401 or 403: resolve true to send the request again (after (re)authorizing,
   * refreshing, stepping up the scope, or taking a DPoP nonce), false to let the answer stand (the
   * request then fails as any 4xx does). Called at most {@link MAX_AUTH_RETRIES} times per request.
   *
   * @throws anything: the request then fails with a `TransportError` "authorization failed: ..."
   *   whose `cause` is the error and whose `httpStatus` is the challenge's status.
   */
  onChallenge(challenge: HttpAuthChallenge): boolean | Promise<boolean>;
}

/**
 * A sender that sends through `inner` with `auth`'s headers and re-sends a request after a
 * challenge `auth` answered with true.
 */
export function authorizingSender(inner: HttpSender, url: URL, auth: HttpClientAuth): HttpSender {
  return {
    async send(method, headers, body, signal) {
      for (let attempt = 0; ; attempt++) {
        const request: HttpAuthRequest = { method, url, signal };
        const sent = { ...headers };
        for (const [name, value] of Object.entries(await guarded(() => auth.headers(request)))) {
          sent[name.toLowerCase()] = value;
        }
        const answer = await inner.send(method, sent, body, signal);
        const status = answer.status;
        if ((status !== 401 && status !== 403) || attempt >= MAX_AUTH_RETRIES) return answer;
        const challenge: HttpAuthChallenge = {
          ...request,
          status,
          attempt,
          header: (name) => answer.header(name),
        };
        let again: boolean;
        try {
          again = await guarded(() => auth.onChallenge(challenge), status);
        } catch (error) {
          await answer.discard();
          throw error;
        }
        if (!again) return answer;
        await answer.discard();
      }
    },
    close() {
      inner.close();
    },
  };
}

/** Runs a hook; what it throws becomes a `TransportError` naming authorization as the failure. */
async function guarded<T>(run: () => T | Promise<T>, httpStatus?: number): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TransportError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new TransportError(`authorization failed: ${message}`, {
      cause: error,
      ...(httpStatus === undefined ? {} : { httpStatus }),
    });
  }
}
