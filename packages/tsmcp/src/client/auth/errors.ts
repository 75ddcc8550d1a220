/**
 * The errors of the client's OAuth layer: why authorization could not be had, as a closed union
 * of reasons, with a message that names the URLs involved and never a token or secret; and the
 * answer of an authorization server or protected resource that was too large to read.
 * Spec: basic/authorization.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/**
 * Why authorization failed. A request of a step that fails on the network (connection refused, a
 * host not found) fails with that step's reason, its message naming the request and its URL, its
 * `cause` the network error.
 */
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
  | "token"
  /**
   * The request that needed authorization timed out during a step of it (a metadata request,
   * registration, the user's sign-in, a token request); the message names the step, the `cause`
   * is the request's timeout error.
   */
  | "timeout";

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

/**
 * What {@link OAuthResponseTooLargeError} says was too large: a metadata document (RFC 9728 §3,
 * RFC 8414 §3), a Dynamic Client Registration response (RFC 7591 §3.2), or a token endpoint
 * response (OAuth 2.1 §3.2.3).
 */
export type OAuthDocument =
  | "protected resource metadata"
  | "authorization server metadata"
  | "client registration response"
  | "token response";

/**
 * An answer from a protected resource or an authorization server was larger than the client reads
 * (`maxResponseBytes` of the `OAuthClientProvider`): its `Content-Length` said so, or its body grew
 * past the limit, at which point reading stopped and the connection was released. The HTTP client
 * transport reports it as the `cause` of the request's `TransportError` ("authorization failed: ...").
 */
export class OAuthResponseTooLargeError extends TsmcpError {
  override readonly name = "OAuthResponseTooLargeError";
  /** `"ERR_OAUTH_RESPONSE_TOO_LARGE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.OAuthResponseTooLargeError;
  /** Which answer it was. */
  readonly document: OAuthDocument;
  /** The URL it came from. */
  readonly url: string;
  /** The limit, in bytes of the body as received (after any content decoding). */
  readonly maxBytes: number;

  constructor(document: OAuthDocument, url: string, maxBytes: number) {
    super(`the ${document} from ${url} exceeds maxResponseBytes (${maxBytes} bytes)`);
    this.document = document;
    this.url = url;
    this.maxBytes = maxBytes;
  }
}
