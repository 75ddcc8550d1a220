/**
 * Telling a 2025-era client that a URL-mode elicitation finished: the user completed, out of
 * band, what the URL asked (an OAuth flow, a payment), so the client may close its prompt or retry
 * the request that needed it. Sent on the session, often long after the request that elicited and
 * from outside its handler (an OAuth callback): keep the request's `ctx.session` to send it then.
 * Spec (2025-11-25): client/elicitation §URL Mode Elicitation (`notifications/elicitation/complete`).
 */
import { McpError } from "../protocol/errors.js";
import type { LegacySession } from "../transport/dispatcher.js";

/** The notification's method. */
export const ELICITATION_COMPLETE = "notifications/elicitation/complete";

/**
 * Sends `notifications/elicitation/complete` naming `elicitationId` (the id the server gave the
 * URL-mode `elicitation/create`) to `session`: on its standalone stream (Streamable HTTP: queued,
 * bounded, while the client has no GET stream open) or stdout (stdio). Nothing is sent once the
 * session ended.
 *
 * ```ts
 * // in the tool: remember who asked
 * pending.set(elicitationId, ctx.session);
 * await ctx.elicit({ mode: "url", elicitationId, url, message: "Sign in" });
 * // in the OAuth callback, later
 * const session = pending.get(elicitationId);
 * if (session) elicitationComplete(session, elicitationId);
 * ```
 *
 * @throws TypeError when `elicitationId` is not a non-empty string.
 */
export function elicitationComplete(session: LegacySession, elicitationId: string): void {
  if (typeof elicitationId !== "string" || elicitationId === "") {
    throw new TypeError("elicitationComplete: elicitationId must be a non-empty string");
  }
  if (session.signal.aborted) return;
  session.notify({ jsonrpc: "2.0", method: ELICITATION_COMPLETE, params: { elicitationId } });
}

/**
 * {@link elicitationComplete} on the session of a request, for `ctx.notifyElicitationComplete`.
 *
 * @throws McpError -32600 without a session (the stateless 2026-07-28 wire, where a URL-mode
 *   elicitation is an `InputRequiredResult` and needs no completion notice); TypeError for an
 *   empty `elicitationId`.
 */
export function notifyElicitationComplete(session: LegacySession | undefined, elicitationId: string): void {
  if (session === undefined) {
    throw McpError.of(
      "INVALID_REQUEST",
      `Cannot send '${ELICITATION_COMPLETE}': this request belongs to no 2025-era session.`,
    );
  }
  elicitationComplete(session, elicitationId);
}
