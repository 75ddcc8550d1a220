/**
 * What a client session's era decides on its own: which methods exist only at 2026-07-28, and
 * where the server's self-description comes from (`server/discover` at 2026-07-28, `initialize`
 * on a 2025-era session). Spec: basic/versioning; (2025-11-25) basic/lifecycle.
 */
import type { Implementation, ServerCapabilities } from "../protocol/schema/base.js";
import type { InitializeResult } from "../protocol/schema/handshake.js";
import type { DiscoverResult } from "../protocol/schema/methods.js";
import { META } from "../protocol/versions.js";
import { MethodNotInEraError } from "./errors.js";

/** The era of a conversation: `"modern"` is 2026-07-28, `"legacy"` a 2025-era session. */
export type SessionEra = "modern" | "legacy";

/** The methods only the 2026-07-28 revision has; a 2025-era session refuses them locally. */
const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set(["server/discover", "subscriptions/listen"]);

/**
 * Refuses, before sending, a method the session's era does not have.
 *
 * @throws MethodNotInEraError for a 2026-07-28-only method on a 2025-era session.
 */
export function checkMethodInEra(era: SessionEra, method: string, protocolVersion: string): void {
  if (era === "legacy" && MODERN_ONLY_METHODS.has(method)) {
    throw new MethodNotInEraError(
      method,
      protocolVersion,
      "this session was opened with initialize (a 2025-era server); it exists only at 2026-07-28",
    );
  }
}

/** What the server has said about itself so far, by either handshake. */
export interface ServerAnswers {
  readonly discovered: DiscoverResult | undefined;
  readonly initialized: InitializeResult | undefined;
}

/** What the server said it is, from the handshake of `era`. */
export function serverInfoOf(era: SessionEra, answers: ServerAnswers): Implementation | undefined {
  if (era === "legacy") return answers.initialized?.serverInfo;
  return answers.discovered?._meta?.[META.serverInfo] as Implementation | undefined;
}

/** What the server offers, from the handshake of `era`. */
export function serverCapabilitiesOf(
  era: SessionEra,
  answers: ServerAnswers,
): ServerCapabilities | undefined {
  return era === "legacy" ? answers.initialized?.capabilities : answers.discovered?.capabilities;
}

/** The server's instructions for the model, from the handshake of `era`. */
export function instructionsOf(era: SessionEra, answers: ServerAnswers): string | undefined {
  return era === "legacy" ? answers.initialized?.instructions : answers.discovered?.instructions;
}
