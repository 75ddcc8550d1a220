/**
 * The telemetry of one `ClientSession`: the CLIENT span and `mcp.client.operation.duration` of
 * each message it sends (see `request-span.ts`), the hashed 2025-era session id those spans carry
 * as `mcp.session.id`, and `mcp.client.session.duration` from construction to `close`.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { RequestId } from "../protocol/jsonrpc.js";
import { SEMCONV } from "../telemetry/attributes.js";
import type { TelemetryOption } from "../telemetry/options.js";
import { type Telemetry, telemetryFor } from "../telemetry/telemetry.js";
import type { Transport } from "../transport/transport.js";
import type { SessionEra } from "./era.js";
import { withMeta } from "./request-meta.js";
import { endSent, failSent, finish, type Peer, peerOf, type SentRecord, startSent } from "./request-span.js";
import { DEFAULT_CLIENT_INFO } from "./session-options.js";

/** What the spans of a session's messages read of it. */
export interface SessionView {
  readonly transport: Transport;
  readonly protocolVersion: string;
  readonly era: SessionEra;
}

/** A session's recording handle; one per `ClientSession` whose telemetry is on. */
export class SessionTelemetry {
  readonly #telemetry: Telemetry;
  readonly #peer: Peer;
  /** The hashed id of the 2025-era session, for `mcp.session.id`. */
  #sessionHash: string | undefined;
  /** When the session began (`performance.now()`); undefined once its duration is recorded. */
  #openedMs: number | undefined = performance.now();

  constructor(telemetry: Telemetry, transport: Transport) {
    this.#telemetry = telemetry;
    this.#peer = peerOf(transport);
  }

  /**
   * Starts the span of a request `session` is about to send and writes its trace context into
   * `meta` (an object the session owns); undefined when nothing records.
   */
  start(
    session: SessionView,
    method: string,
    params: Record<string, unknown>,
    id: RequestId | undefined,
    meta: Record<string, unknown>,
  ): SentRecord | undefined {
    if (!this.#telemetry.recording()) return undefined;
    return this.#start(session, method, params, id, meta);
  }

  #start(
    session: SessionView,
    method: string,
    params: Record<string, unknown>,
    id: RequestId | undefined,
    meta: Record<string, unknown>,
  ): SentRecord {
    const legacySession = session.era === "legacy";
    const facts = {
      method,
      params,
      id,
      protocolVersion: session.protocolVersion,
      legacy: legacySession || method === "initialize",
      sessionHash: legacySession ? this.#sessionHash : undefined,
    };
    return startSent(this.#telemetry, this.#peer, facts, meta);
  }

  /** Ends a request's span (when it has one) with its result. */
  ended(record: SentRecord | undefined, result: Record<string, unknown>): void {
    if (record !== undefined) endSent(this.#telemetry, record, result);
  }

  /** Ends a request's span (when it has one) that the caller ended (a closed subscription): no error. */
  endedByCaller(record: SentRecord | undefined): void {
    if (record !== undefined) finish(this.#telemetry, record);
  }

  /** Ends a request's span (when it has one) with its failure. */
  failed(record: SentRecord | undefined, error: unknown): void {
    if (record !== undefined) failSent(this.#telemetry, record, error);
  }

  /**
   * Sends a notification on `session`'s transport, in a span whose trace context travels in its
   * `_meta` when anything records. `params` is copied, never changed.
   */
  async notify(session: SessionView, method: string, params?: Record<string, unknown>): Promise<void> {
    const { transport } = session;
    if (!this.#telemetry.recording()) {
      await transport.notify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
      return;
    }
    const given = params ?? {};
    const meta: Record<string, unknown> = { ...(given._meta as Record<string, unknown> | undefined) };
    const record = this.#start(session, method, given, undefined, meta);
    const sent = withMeta(given, meta);
    try {
      await transport.notify({
        jsonrpc: "2.0",
        method,
        ...(Object.keys(sent).length === 0 ? {} : { params: sent }),
      });
      finish(this.#telemetry, record);
    } catch (error) {
      failSent(this.#telemetry, record, error);
      throw error;
    }
  }

  /** Learns the 2025-era session the handshake opened (its id, hashed). */
  async initialized(session: SessionView): Promise<void> {
    const sessionId = (session.transport as { sessionId?: unknown }).sessionId;
    this.#sessionHash = typeof sessionId === "string" ? await hashSessionId(sessionId) : undefined;
  }

  /** Records the session's duration, once, when it closes. */
  closed(session: SessionView): void {
    if (this.#openedMs === undefined) return;
    const attributes: Record<string, string> = { [SEMCONV.protocolVersion]: session.protocolVersion };
    if (this.#peer.transport !== undefined) attributes[SEMCONV.networkTransport] = this.#peer.transport;
    this.#telemetry
      .instruments()
      .sessionDuration.record((performance.now() - this.#openedMs) / 1000, attributes);
    this.#openedMs = undefined;
  }
}

/** The telemetry of a session on `transport`: undefined when `option` or a missing API turns it off. */
export function sessionTelemetry(
  transport: Transport,
  option: TelemetryOption | undefined,
): SessionTelemetry | undefined {
  const telemetry = telemetryFor("client", DEFAULT_CLIENT_INFO.version, option);
  return telemetry === undefined ? undefined : new SessionTelemetry(telemetry, transport);
}

/**
 * The `mcp.session.id` recorded for a 2025-era session: the first 32 hex digits of the SHA-256 of
 * its id (the raw id lets anyone holding it act on the session, so it is never exported).
 * `undefined` where Web Crypto is missing.
 */
export async function hashSessionId(sessionId: string): Promise<string | undefined> {
  const subtle = (
    globalThis as {
      crypto?: { subtle?: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> } };
    }
  ).crypto?.subtle;
  if (subtle === undefined) return undefined;
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(sessionId)));
  let hex = "";
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
