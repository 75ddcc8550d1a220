/**
 * `ResolverError`: a resolver could not produce a value for its consumer (the user declined, the
 * client answered with something malformed or of the wrong kind). A tool turns it into an
 * `isError` result carrying its message; it never becomes a protocol error.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/** A resolver could not resolve; `message` is safe to show the client (it leaks no validator detail). */
export class ResolverError extends TsmcpError {
  override readonly name = "ResolverError";
  /** `"ERR_RESOLVER"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ResolverError;
  /** The resolver's name (its wire key). */
  readonly resolver: string;

  constructor(resolver: string, message: string) {
    super(message);
    this.resolver = resolver;
  }
}
