/**
 * The client's side of the 2025-era `initialize` handshake: the params it sends (the newest
 * handshake revision, the declared capabilities, `clientInfo`) and the check of the server's answer
 * (its shape, and a revision this client speaks). Spec (2025-11-25): basic/lifecycle §Initialization,
 * §Version Negotiation.
 */
import type { ClientCapabilities, Implementation } from "../protocol/schema/base.js";
import { type InitializeResult, InitializeResultSchema } from "../protocol/schema/handshake.js";
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from "../protocol/versions.js";
import { InvalidServerResponseError, ProtocolNegotiationError } from "./errors.js";

/** The revision a client asks for in `initialize`: the newest handshake revision, 2025-11-25. */
export const HANDSHAKE_REQUEST_VERSION = LEGACY_PROTOCOL_VERSIONS[0] as string;

/** The params of `initialize`. */
export function initializeParams(
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
): Record<string, unknown> {
  return { protocolVersion: HANDSHAKE_REQUEST_VERSION, capabilities, clientInfo };
}

/**
 * Checks the answer to `initialize`.
 *
 * @throws InvalidServerResponseError when it is not an `InitializeResult`; ProtocolNegotiationError
 *   when it names a revision this client does not speak.
 */
export function checkInitializeResult(result: Record<string, unknown>): InitializeResult {
  const parsed = InitializeResultSchema.safeParse(result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidServerResponseError(
      `initialize: the result does not match the protocol (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`,
    );
  }
  const version = parsed.data.protocolVersion;
  if (!LEGACY_PROTOCOL_VERSIONS.includes(version)) {
    throw new ProtocolNegotiationError(
      `The server answered initialize with protocol version ${JSON.stringify(version)}; this client speaks ${[
        ...MODERN_PROTOCOL_VERSIONS,
        ...LEGACY_PROTOCOL_VERSIONS,
      ].join(", ")}`,
      [version],
    );
  }
  return parsed.data;
}
