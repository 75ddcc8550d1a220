/**
 * DPoP (RFC 9449): the client holds a key pair and proves possession of it on every token request
 * and every request to the resource, so a token that leaks is useless without the key. Proofs
 * (`htm`, `htu`, `ath`, a fresh `jti`) and the servers' nonces are oauth4webapi's `DPoP` handle;
 * this module presents them to the HTTP transport, whose requests oauth4webapi does not send.
 * Spec: SEP-1932 (DPoP for MCP), RFC 9449 §4.2 (proof), §7.1 (the `DPoP` scheme), §8, §9 (nonces).
 */
import * as oauth from "oauth4webapi";

/** The proof algorithm {@link DPoPProver.generate} uses by default. */
export const DEFAULT_DPOP_ALGORITHM = "ES256";

/**
 * What a `dpop` option says: a {@link DPoPProver} to prove with its key; true for a fresh key;
 * false never to; undefined for a fresh key when the authorization server lists
 * {@link DEFAULT_DPOP_ALGORITHM} in `dpop_signing_alg_values_supported`.
 */
export type DPoPOption = DPoPProver | boolean | undefined;

/**
 * Checks a `dpop` option.
 *
 * @throws TypeError naming `owner` unless it is undefined, a boolean or a {@link DPoPProver}.
 */
export function checkDPoPOption(owner: string, value: unknown): DPoPOption {
  if (value !== undefined && typeof value !== "boolean" && !(value instanceof DPoPProver)) {
    throw new TypeError(`${owner} option "dpop" must be a boolean or a DPoPProver`);
  }
  return value;
}

/**
 * The prover to use with `as` under `option`: `current` when there is one (one key for the
 * client's life), else the option's or a new one, else undefined (no DPoP).
 */
export async function proverFor(
  option: DPoPOption,
  as: oauth.AuthorizationServer,
  current: DPoPProver | undefined,
): Promise<DPoPProver | undefined> {
  if (option === false) return undefined;
  if (option instanceof DPoPProver) return option;
  if (current !== undefined) return current;
  const advertised = as.dpop_signing_alg_values_supported?.includes(DEFAULT_DPOP_ALGORITHM) === true;
  return option === true || advertised ? DPoPProver.generate() : undefined;
}

/** No request leaves the process through this: oauth4webapi builds a request and hands it here. */
function captureInto(
  sink: { headers?: Record<string, string> },
  nonce?: string,
): (url: string, init: { headers: Record<string, string> }) => Promise<Response> {
  return async (_url, init) => {
    sink.headers = { ...init.headers };
    return new Response(null, { status: 204, headers: nonce === undefined ? {} : { "dpop-nonce": nonce } });
  };
}

/**
 * A DPoP key pair and its proofs. The same prover serves the token endpoint (its {@link handle}
 * goes into the token request) and the resource (its {@link resourceHeaders} go on each request).
 */
export class DPoPProver {
  /** oauth4webapi's handle: signs proofs and keeps each origin's latest nonce. */
  readonly handle: oauth.DPoPHandle;

  /**
   * @param keyPair an asymmetric key pair whose public key is extractable (it goes in each proof's
   *   `jwk` header).
   * @throws TypeError when the key pair is not usable for DPoP.
   */
  constructor(keyPair: oauth.CryptoKeyPair) {
    this.handle = oauth.DPoP({}, keyPair);
  }

  /** A prover with a fresh key pair for `algorithm` (a JWS name; default {@link DEFAULT_DPOP_ALGORITHM}). */
  static async generate(algorithm: string = DEFAULT_DPOP_ALGORITHM): Promise<DPoPProver> {
    return new DPoPProver(await oauth.generateKeyPair(algorithm));
  }

  /**
   * The headers that present `accessToken` on a request to `url`: `authorization: DPoP <token>`
   * and a fresh `dpop` proof for `method` and `url` (without its query), its `ath` the token's
   * hash and its `nonce` the last one `url`'s origin gave.
   */
  async resourceHeaders(accessToken: string, method: string, url: URL): Promise<Record<string, string>> {
    const sink: { headers?: Record<string, string> } = {};
    await oauth.protectedResourceRequest(accessToken, method, url, undefined, null, {
      DPoP: this.handle,
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: captureInto(sink),
    });
    const { authorization, dpop } = sink.headers ?? {};
    if (authorization === undefined || dpop === undefined)
      throw new Error("oauth4webapi built no DPoP proof");
    return { authorization, dpop };
  }

  /**
   * Keeps `nonce` as the one to put in the next proofs for `url`'s origin (a resource server's
   * `DPoP-Nonce`, RFC 9449 §9).
   */
  async takeNonce(url: URL, nonce: string): Promise<void> {
    await oauth.protectedResourceRequest("-", "GET", url, undefined, null, {
      DPoP: this.handle,
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: captureInto({}, nonce),
    });
  }
}
