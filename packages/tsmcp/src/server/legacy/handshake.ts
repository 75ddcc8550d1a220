/**
 * The `initialize` handshake of a 2025-era session: params validated, the revision negotiated
 * (the requested one when served, else the newest served), the session's handshake recorded, and
 * the answer built with the capabilities in the 2025-11-25 shape. Spec (2025-11-25):
 * basic/lifecycle §Initialization, §Version Negotiation, §Capability Negotiation.
 */
import { invalidParams, McpError } from "../../protocol/errors.js";
import type { Params } from "../../protocol/jsonrpc.js";
import type { Implementation, ServerCapabilities } from "../../protocol/schema/base.js";
import { InitializeRequestParamsSchema, type InitializeResult } from "../../protocol/schema/handshake.js";
import { TASKS_EXTENSION } from "../../protocol/schema/tasks.js";
import { HANDSHAKE_PROTOCOL_VERSIONS } from "../../protocol/versions.js";
import type { LegacySession } from "../../transport/dispatcher.js";
import { describeIssue } from "../request-meta.js";

/**
 * The most characters of JSON a session keeps of the client's `clientInfo` and `capabilities`
 * together (64 Ki): a session lives long, so what it keeps of an unauthenticated peer is bounded.
 */
export const MAX_HANDSHAKE_CHARS = 64 * 1024;

/** What the server says about itself in the answer. */
export interface ServerSelfDescription {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
}

/**
 * The revision to answer `requested` with: itself when it is a handshake revision this server
 * serves, otherwise the newest one (the client then disconnects if it cannot speak it).
 */
export function negotiateProtocolVersion(requested: string): string {
  return HANDSHAKE_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : (HANDSHAKE_PROTOCOL_VERSIONS[0] as string);
}

/** The 2025-11-25 capability keys a server may advertise; the 2026-only ones are dropped. */
const HANDSHAKE_CAPABILITY_KEYS = new Set([
  "experimental",
  "logging",
  "completions",
  "prompts",
  "resources",
  "tools",
  "tasks",
]);

/**
 * `capabilities` in the 2025-11-25 shape: only the keys that revision defines, and the server's
 * extensions (`extensions`, negotiated in the handshake as at 2026-07-28) but the tasks extension,
 * which that revision's core `tasks` capability stands for. Spec:
 * https://modelcontextprotocol.io/extensions/overview (Negotiation).
 */
export function handshakeCapabilities(capabilities: ServerCapabilities): ServerCapabilities {
  const shaped: ServerCapabilities = {};
  for (const [key, value] of Object.entries(capabilities)) {
    if (HANDSHAKE_CAPABILITY_KEYS.has(key) && value !== undefined) shaped[key] = value;
  }
  const extensions = capabilities.extensions;
  if (extensions !== undefined) {
    const kept: NonNullable<ServerCapabilities["extensions"]> = {};
    let any = false;
    for (const [id, settings] of Object.entries(extensions)) {
      if (id === TASKS_EXTENSION) continue;
      kept[id] = settings;
      any = true;
    }
    if (any) shaped.extensions = kept;
  }
  return shaped;
}

/**
 * Answers `initialize` on `session` and records its handshake.
 *
 * @throws McpError -32600 when the session already completed `initialize`; -32602 naming the
 *   field when the params are not an `InitializeRequestParams`, or when `clientInfo` and
 *   `capabilities` take more than {@link MAX_HANDSHAKE_CHARS} characters of JSON.
 */
export function initialize(
  session: LegacySession,
  params: Params | undefined,
  self: ServerSelfDescription,
): InitializeResult {
  if (session.handshake !== undefined) {
    throw McpError.of("INVALID_REQUEST", "Invalid request: the session is already initialized");
  }
  const parsed = InitializeRequestParamsSchema.safeParse(params ?? {});
  if (!parsed.success) {
    throw invalidParams(`Invalid params: ${describeIssue(parsed.error.issues)}`);
  }
  const { protocolVersion: requested, capabilities, clientInfo } = parsed.data;
  const kept = JSON.stringify({ clientInfo, capabilities }).length;
  if (kept > MAX_HANDSHAKE_CHARS) {
    throw invalidParams(
      `Invalid params: clientInfo and capabilities take ${kept} characters of JSON, more than the ${MAX_HANDSHAKE_CHARS} a session keeps`,
    );
  }
  const protocolVersion = negotiateProtocolVersion(requested);
  session.handshake = { protocolVersion, clientInfo, clientCapabilities: capabilities };
  const result: InitializeResult = {
    protocolVersion,
    capabilities: handshakeCapabilities(self.capabilities),
    serverInfo: self.serverInfo,
  };
  if (self.instructions !== undefined) result.instructions = self.instructions;
  return result;
}
