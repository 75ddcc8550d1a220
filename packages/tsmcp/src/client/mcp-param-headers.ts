/**
 * `x-mcp-header`, the client's policy: recognising a HeaderMismatch about an `Mcp-Param-*`
 * header, after which the client refreshes `tools/list` and retries once. The annotation rules
 * live in `protocol/x-mcp-header.ts`, the header encoding in `transport/http/param-headers.ts`.
 * Spec: basic/transports/streamable-http §Custom Headers.
 */
import { ERRORS, McpError } from "../protocol/errors.js";

/**
 * True for a -32020 HeaderMismatch about an `Mcp-Param-*` header (named in `data.header`, or
 * else in the message): the tool's schema may have changed since it was listed. Spec: basic/transports/streamable-http §Custom Headers (the
 * client SHOULD refresh `tools/list` and retry).
 */
export function isParamHeaderMismatch(error: unknown): boolean {
  if (!(error instanceof McpError) || error.code !== ERRORS.HEADER_MISMATCH.code) return false;
  const header = (error.data as { header?: unknown } | null | undefined)?.header;
  return /mcp-param-/i.test(typeof header === "string" ? header : error.message);
}
