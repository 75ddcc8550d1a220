/**
 * A session's facts as the `SessionStore` keeps them, and back: the record `initialize` creates,
 * the facts a dispatch may change (written back after it), and a local view's facts refreshed from
 * the record each request. The principal is kept as a SHA-256 digest (it may hold a bearer token),
 * computed with Web Crypto so the transport stays runtime-neutral. Spec (2025-11-25):
 * basic/transports §Session Management; basic/security_best_practices §Session Hijacking.
 */
import type { SessionChanges, SessionRecord } from "../../../state/session-store.js";
import type { LegacyHandshake, LegacySession } from "../../dispatcher.js";

/** What the records read and set of a local session view. */
type SessionView = Pick<LegacySession, "handshake" | "initialized" | "logLevel" | "resourceSubscriptions"> & {
  negotiatedVersion: string | undefined;
  readonly principal: string | undefined;
};

const encoder = new TextEncoder();

/** The SHA-256 of `principal` in lowercase hex; undefined for a session opened without one. */
export async function principalDigest(principal: string | undefined): Promise<string | undefined> {
  if (principal === undefined) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(principal)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The record of a session whose `initialize` succeeded. */
export async function recordOf(
  session: SessionView,
  standaloneCursor: string | undefined,
): Promise<SessionRecord> {
  const handshake = session.handshake;
  return {
    principal: await principalDigest(session.principal),
    protocolVersion: handshake?.protocolVersion ?? (session.negotiatedVersion as string),
    clientInfo: { ...(handshake?.clientInfo ?? {}) },
    clientCapabilities: { ...(handshake?.clientCapabilities ?? {}) },
    initialized: session.initialized,
    logLevel: session.logLevel,
    resourceSubscriptions: [...session.resourceSubscriptions],
    standaloneCursor,
  };
}

/** The facts of a session a dispatch may change. */
export type SessionFacts = Pick<SessionRecord, "initialized" | "resourceSubscriptions" | "logLevel">;

/** A view's facts now. */
export function factsOf(session: SessionView): SessionFacts {
  return {
    initialized: session.initialized,
    logLevel: session.logLevel,
    resourceSubscriptions: [...session.resourceSubscriptions].sort(),
  };
}

/** The facts of `after` that differ from `before`; undefined when none does. */
export function changedFacts(before: SessionFacts, after: SessionFacts): SessionChanges | undefined {
  const changes: { -readonly [K in keyof SessionChanges]: SessionChanges[K] } = {};
  if (before.initialized !== after.initialized) changes.initialized = after.initialized;
  if (before.logLevel !== after.logLevel) changes.logLevel = after.logLevel;
  const subscribed = after.resourceSubscriptions.filter((uri) => !before.resourceSubscriptions.includes(uri));
  const unsubscribed = before.resourceSubscriptions.filter(
    (uri) => !after.resourceSubscriptions.includes(uri),
  );
  if (subscribed.length > 0) changes.subscribed = subscribed;
  if (unsubscribed.length > 0) changes.unsubscribed = unsubscribed;
  return Object.keys(changes).length === 0 ? undefined : changes;
}

/** Sets a view's facts from its record (another replica may have changed them). */
export function applyRecord(session: SessionView, record: SessionRecord): void {
  const handshake: LegacyHandshake = {
    protocolVersion: record.protocolVersion,
    clientInfo: record.clientInfo as unknown as LegacyHandshake["clientInfo"],
    clientCapabilities: record.clientCapabilities as LegacyHandshake["clientCapabilities"],
  };
  session.handshake ??= handshake;
  session.negotiatedVersion ??= record.protocolVersion;
  session.initialized = record.initialized;
  session.logLevel = record.logLevel;
  session.resourceSubscriptions.clear();
  for (const uri of record.resourceSubscriptions) session.resourceSubscriptions.add(uri);
}
