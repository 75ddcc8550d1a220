/**
 * The one error of the client's OAuth layer: why authorization could not be had, as a closed union
 * of reasons, with a message that names the URLs involved and never a token or secret.
 * Spec: basic/authorization.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/** Why authorization failed. */
export type OAuthErrorReason =
  /** No protected resource metadata, or no authorization server metadata, could be found or used. */
  | "discovery"
  /** The protected resource metadata names another resource than the server connected to. */
  | "resource_mismatch"
  /** The client could not be identified to the authorization server (no way to register, or registration failed). */
  | "registration"
  /** The authorization response was refused (`state`, `iss`, an `error`) or the user's step failed. */
  | "authorization"
  /** The token endpoint refused the grant, or answered something that is no token response. */
  | "token";

/**
 * Authorization with the server's authorization server failed. The HTTP client transport reports
 * it as the `cause` of the request's `TransportError` ("authorization failed: ...").
 */
export class OAuthError extends TsmcpError {
  override readonly name = "OAuthError";
  /** `"ERR_OAUTH"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.OAuthError;
  /** Which step failed. */
  readonly reason: OAuthErrorReason;

  constructor(reason: OAuthErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}
