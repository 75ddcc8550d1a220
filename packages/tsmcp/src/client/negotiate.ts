/**
 * Which era a `Client` speaks with its server, decided once at connect. `"auto"` probes with one
 * `server/discover` stamped 2026-07-28 and adopts that revision when the server offers it; on the
 * signals of an older server (a JSON-RPC error, an HTTP 400/404/405, a result it cannot read, a
 * probe that times out, but not one that timed out while authorizing: that failure is reported as
 * it is, naming the step; a stdio server process that exits on the probe) it opens a 2025-era
 * session with `initialize` on the same transport (over stdio, the same child process, or a new one
 * when the first exited: started once, and if it exits too that error stands). It asks again at
 * most once, never in a loop. `"2026-07-28"`
 * never handshakes; `"legacy"` always does. Spec: basic/versioning, server/discover,
 * (2025-11-25) basic/lifecycle §Version Negotiation.
 */
import { ERRORS, McpError } from "../protocol/errors.js";
import { ERROR_CODES } from "../protocol/local-errors.js";
import type { DiscoverResult } from "../protocol/schema/methods.js";
import {
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from "../protocol/versions.js";
import { TransportError } from "../transport/transport.js";
import { InvalidServerResponseError, ProtocolNegotiationError, RequestTimeoutError } from "./errors.js";

/**
 * The part of a client session negotiation drives: the two handshakes and the revision it settles on.
 * Declared here so negotiation does not depend on the session module that calls it.
 */
export interface NegotiatingSession {
  /** The last `server/discover` result, or undefined when discovery has not succeeded. */
  discovered: DiscoverResult | undefined;
  /** Runs the 2025 `initialize` handshake. */
  initialize(): Promise<unknown>;
  /** Runs `server/discover`; throws what the request throws. */
  discover(options?: { timeoutMs?: number }): Promise<DiscoverResult>;
  /** Settles on `protocolVersion`, keeping `discovered` when given. */
  adopt(protocolVersion: string, discovered?: DiscoverResult): void;
}

/** How a `Client` picks its protocol revision: probe (`"auto"`), 2026-07-28 only, or the 2025 handshake. */
export type ProtocolVersionMode = "auto" | "2026-07-28" | "legacy";

/** The modes `Client.connect` accepts. */
export const PROTOCOL_VERSION_MODES: readonly ProtocolVersionMode[] = Object.freeze([
  "auto",
  "2026-07-28",
  "legacy",
]);

/** The longest the `"auto"` probe waits for `server/discover`: 10 000 ms (less when `timeoutMs` is). */
export const DISCOVER_PROBE_TIMEOUT_MS = 10_000;

/** HTTP statuses without a usable JSON-RPC body that say "an older server": 400, 404, 405. */
const OLDER_SERVER_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/** What connect was asked for. */
export interface NegotiationOptions {
  mode: ProtocolVersionMode;
  /** False: adopt 2026-07-28 without asking (`"auto"` and `"2026-07-28"`). */
  discover: boolean;
  /** A discover result saved from an earlier connection: adopted without asking. */
  discoverResult?: DiscoverResult;
  /** The session's request timeout, which bounds the probe's. */
  timeoutMs: number;
  /**
   * The probe's own bound in milliseconds. Default: `timeoutMs`, at most
   * {@link DISCOVER_PROBE_TIMEOUT_MS}. With authorization the probe may wait for a person signing
   * in, so `Client.connect` gives it the whole `timeoutMs` then.
   */
  probeTimeoutMs?: number;
}

/** The newest revision both sides speak at 2026-07-28, if any. */
function mutualModern(versions: readonly string[] | undefined): string | undefined {
  return MODERN_PROTOCOL_VERSIONS.find((version) => versions?.includes(version));
}

/** `data.supported` of a -32022 error; undefined for any other error or unreadable data. */
export function supportedVersionsOf(error: unknown): string[] | undefined {
  if (!(error instanceof McpError) || error.code !== ERRORS.UNSUPPORTED_PROTOCOL_VERSION.code)
    return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.every((v) => typeof v === "string") ? supported : undefined;
}

function neitherEra(offered: readonly string[], cause: unknown): ProtocolNegotiationError {
  return new ProtocolNegotiationError(
    `The server speaks none of this client's protocol versions: it offered ${offered.join(", ") || "none"}; ` +
      `this client speaks ${[...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS].join(", ")}`,
    offered,
    { cause },
  );
}

/**
 * Agrees on a revision with the server behind `session`: afterwards `session.protocolVersion` and
 * `session.era` say which.
 *
 * @throws ProtocolNegotiationError when the server offers no revision this client speaks (the
 *   message names what it offered); the handshake's McpError when `initialize` fails otherwise;
 *   TransportError (connection refused, ...) and cancellation unchanged: they are never an era verdict.
 */
export async function negotiate(session: NegotiatingSession, options: NegotiationOptions): Promise<void> {
  if (options.mode === "legacy") {
    await session.initialize();
    return;
  }
  if (options.discoverResult !== undefined) {
    const version = mutualModern(options.discoverResult.supportedVersions);
    if (version !== undefined) return session.adopt(version, options.discoverResult);
    if (options.mode === "2026-07-28") throw neitherEra(options.discoverResult.supportedVersions, undefined);
    await session.initialize();
    return;
  }
  if (!options.discover) return session.adopt(LATEST_PROTOCOL_VERSION);
  if (options.mode === "2026-07-28") {
    await session.discover();
    return;
  }
  const probeTimeoutMs = options.probeTimeoutMs ?? Math.min(options.timeoutMs, DISCOVER_PROBE_TIMEOUT_MS);
  if (await probe(session, probeTimeoutMs)) return;
  try {
    await session.initialize();
  } catch (error) {
    const supported = supportedVersionsOf(error);
    if (supported === undefined) throw error;
    // A probe that timed out here may still have set a server's connection to 2026-07-28: ask once more.
    if (mutualModern(supported) !== undefined && (await probe(session, probeTimeoutMs, false))) return;
    throw neitherEra(supported, error);
  }
}

/**
 * One `server/discover` at 2026-07-28 (with the session's one corrective retry on -32022).
 * Resolves true when the server offers a mutual modern revision (adopted), false on the signals
 * of an older server (when `fallback` allows one).
 */
async function probe(session: NegotiatingSession, timeoutMs: number, fallback = true): Promise<boolean> {
  let result: DiscoverResult;
  try {
    result = await session.discover({ timeoutMs });
  } catch (error) {
    if (!fallback) throw error;
    if (error instanceof McpError) {
      const supported = supportedVersionsOf(error);
      if (error.code !== ERRORS.UNSUPPORTED_PROTOCOL_VERSION.code || supported === undefined) return false;
      if (mutualModern(supported) !== undefined) throw error;
      if (supported.some((version) => LEGACY_PROTOCOL_VERSIONS.includes(version))) return false;
      throw neitherEra(supported, error);
    }
    if (
      error instanceof InvalidServerResponseError ||
      error instanceof RequestTimeoutError ||
      exitedOnProbe(error)
    ) {
      return false;
    }
    if (
      error instanceof TransportError &&
      error.httpStatus !== undefined &&
      OLDER_SERVER_STATUSES.has(error.httpStatus)
    ) {
      return false;
    }
    throw error;
  }
  const version = mutualModern(result.supportedVersions);
  if (version === undefined) {
    session.discovered = undefined;
    return false;
  }
  session.adopt(version, result);
  return true;
}

/**
 * True when the stdio server process ended while the probe waited (`ServerProcessExitedError`,
 * recognised by its code so that this module loads nothing Node-only): some older servers exit on
 * a request they do not know. The transport starts a new process for the `initialize` that follows.
 */
function exitedOnProbe(error: unknown): boolean {
  return error instanceof TransportError && error.code === ERROR_CODES.ServerProcessExitedError;
}
