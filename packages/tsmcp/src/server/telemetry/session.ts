/**
 * A 2025-era session as telemetry sees it: its id only as a hash (the raw `Mcp-Session-Id` lets
 * whoever holds it act on the session, so it is never exported), and
 * `mcp.server.session.duration` from its `initialize` to its end.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Metrics
 */
import { createHash } from "node:crypto";
import type { Attributes } from "@opentelemetry/api";
import { SEMCONV } from "../../telemetry/attributes.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { LegacySession } from "../../transport/dispatcher.js";

const hashes = new WeakMap<LegacySession, string>();

/**
 * `mcp.session.id` of `session`, whose id is `id`: the first 32 hex digits of the SHA-256 of its id
 * (stable for the session, useless to act on it).
 */
export function hashedSessionId(session: LegacySession, id: string): string {
  let hash = hashes.get(session);
  if (hash === undefined) {
    hash = createHash("sha256").update(id, "utf8").digest("hex").slice(0, 32);
    hashes.set(session, hash);
  }
  return hash;
}

/**
 * Records `mcp.server.session.duration` (seconds) for `session` when it ends (its signal aborts),
 * counted from now (its `initialize` answered), with its negotiated `mcp.protocol.version` and
 * `network.transport`.
 */
export function watchSessionDuration(
  telemetry: Telemetry,
  session: LegacySession,
  networkTransport: string | undefined,
): void {
  if (session.signal.aborted) return;
  const startMs = performance.now();
  session.signal.addEventListener(
    "abort",
    () => {
      const attributes: Attributes = {};
      const version = session.handshake?.protocolVersion;
      if (version !== undefined) attributes[SEMCONV.protocolVersion] = version;
      if (networkTransport !== undefined) attributes[SEMCONV.networkTransport] = networkTransport;
      telemetry.instruments().sessionDuration.record((performance.now() - startMs) / 1000, attributes);
    },
    { once: true },
  );
}
