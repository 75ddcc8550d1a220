/**
 * Resuming, on this replica, a POST stream another replica of the fleet serves: the client lost
 * the connection and its `GET` with `Last-Event-ID` landed here. The stream's id names its owner
 * and the request it answers; this replica subscribes to the stream's events first, replays the
 * stored ones after the client's id, then writes the live ones (each once) until the response
 * arrives. While none has, the owner is pinged; one that does not answer within the ping timeout
 * stopped, and the stream ends with a JSON-RPC error for the request, so the client never hangs.
 * Spec (2025-11-25): basic/transports §Resumability and Redelivery.
 */
import { McpError } from "../../../protocol/errors.js";
import { errorResponse, type RequestId } from "../../../protocol/jsonrpc.js";
import type { SseStream } from "../server/sse.js";
import type { FleetRouting } from "./fleet-routing.js";
import type { ResumableStream } from "./stream.js";

/** What the id of a POST stream in a fleet names: `{owner}.{n}.{base64url(JSON(requestId))}`. */
export function parsePostStreamId(streamId: string): { owner: string; requestId: RequestId } | undefined {
  const match = /^([^.]+)\.\d+\.([A-Za-z0-9_-]+)$/.exec(streamId);
  if (match === null) return undefined;
  try {
    const padded = (match[2] as string).replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const requestId: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof requestId !== "string" && typeof requestId !== "number") return undefined;
    return { owner: match[1] as string, requestId };
  } catch {
    return undefined;
  }
}

/** `text` as base64url (UTF-8, no padding), for a POST stream id. */
export function base64url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The error a resumed stream ends with when the replica serving its request stopped. */
export function ownerStopped(): McpError {
  return McpError.of(
    "INTERNAL_ERROR",
    "The server instance serving this request stopped before it answered; send the request again",
  );
}

/** What {@link followRemote} needs. */
export interface RemoteStream {
  readonly routing: FleetRouting;
  readonly sessionId: string;
  /** The stream, built to end with the response to `requestId`, not yet connected. */
  readonly stream: ResumableStream;
  readonly owner: string;
  readonly requestId: RequestId;
  readonly lastEventId: string;
  /** Milliseconds the owner has to answer a ping. */
  readonly pingTimeoutMs: number;
  /** True when the owner is known to have stopped serving the request (no ping needed). */
  readonly ownerGone: boolean;
  /** Receives a bus failure. Must not throw. */
  readonly report: (error: unknown) => void;
}

/**
 * Connects `stream` (subscribed, then replayed, then live) and watches its owner until it
 * finishes; returns the connection and the function to call when it ends. Rejects when the bus
 * cannot be reached.
 */
export async function followRemote(
  remote: RemoteStream,
): Promise<{ connection: SseStream; stop: () => void }> {
  const { routing, stream, report } = remote;
  const subscription = await routing.subscribeStream(remote.sessionId, stream.id, (event) =>
    stream.deliver(event),
  );
  let open = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const stop = () => {
    if (!open) return;
    open = false;
    clearTimeout(timer);
    wake?.();
    subscription.unsubscribe().catch(report);
  };
  const connection = stream.connect(remote.lastEventId);
  const watch = async () => {
    await stream.settled();
    while (open && !stream.finished) {
      const alive = !remote.ownerGone && (await routing.ping(remote.owner, remote.pingTimeoutMs));
      if (!open || stream.finished) return;
      if (!alive) {
        await stream.finish(errorResponse(remote.requestId, ownerStopped()));
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, remote.pingTimeoutMs);
        (timer as { unref?: () => void }).unref?.();
      });
    }
  };
  watch().catch(report);
  return { connection, stop };
}
