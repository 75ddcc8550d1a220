/**
 * A session's server -> client requests (elicitation, sampling, roots, ping): each is written
 * where the caller says (a POST's stream, or the standalone stream), times out, is cancelled with
 * `notifications/cancelled` the same way, and settles with the client's answer. In a fleet their
 * ids are `"{instanceId}-{n}"`, so an answer POSTed to another replica finds its way back. Spec
 * (2025-11-25): basic/transports §Sending Messages to the Server, client/elicitation,
 * basic/utilities/cancellation.
 */
import { linkSignal } from "../../../protocol/async.js";
import { McpError } from "../../../protocol/errors.js";
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from "../../../protocol/jsonrpc.js";
import type { BackChannelSendOptions } from "../../dispatcher.js";
import { InFlightRequests } from "../../in-flight.js";

function sessionEnded(): McpError {
  return McpError.of("INVALID_REQUEST", "The session ended before the client answered");
}

/** What {@link OutgoingRequests} needs from its session. */
export interface OutgoingRequestsOptions {
  /** Aborts when the session ends: every request then rejects. */
  readonly signal: AbortSignal;
  /** Milliseconds a request waits for its answer unless the call gives its own. */
  readonly timeoutMs: number;
  /** This replica's id in a fleet (ids become `"{instanceId}-{n}"`); undefined: numeric ids. */
  readonly instanceId?: string | undefined;
}

/** The server -> client requests of one session in flight. */
export class OutgoingRequests {
  readonly #options: OutgoingRequestsOptions;
  readonly #inFlight: InFlightRequests;
  /** Where each request went, to send its cancellation the same way. */
  readonly #routes = new Map<RequestId, (message: JSONRPCMessage) => void>();
  #next = 0;

  constructor(options: OutgoingRequestsOptions) {
    this.#options = options;
    this.#inFlight = new InFlightRequests({
      onCancel: (id, reason) => {
        const route = this.#routes.get(id);
        route?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });
      },
      onHandlerError: () => {},
    });
  }

  /** Settles the request a client's response answers; false when none is in flight. */
  settle(response: JSONRPCResponse): boolean {
    return this.#inFlight.resolve(response);
  }

  /** Rejects every request in flight (the session ended). */
  rejectAll(): void {
    this.#inFlight.rejectAll(sessionEnded());
  }

  /** Sends one request with `send` and resolves with the client's result (rejects with its error). */
  async send(
    send: (message: JSONRPCMessage) => void,
    method: string,
    params: Record<string, unknown> | undefined,
    options: BackChannelSendOptions,
  ): Promise<Record<string, unknown>> {
    const { signal, instanceId } = this.#options;
    if (signal.aborted) throw sessionEnded();
    const n = this.#next++;
    const id: RequestId = instanceId === undefined ? n : `${instanceId}-${n}`;
    options.onRequestId?.(id);
    const request: JSONRPCRequest = {
      jsonrpc: "2.0",
      id,
      method,
      ...(params === undefined ? {} : { params }),
    };
    const controller = new AbortController();
    const unlinkCaller = linkSignal(options.signal, controller);
    const onEnded = () => controller.abort(sessionEnded());
    signal.addEventListener("abort", onEnded, { once: true });
    const timer = setTimeout(
      () => controller.abort(McpError.of("REQUEST_TIMEOUT", "Request timed out")),
      options.timeoutMs ?? this.#options.timeoutMs,
    );
    try {
      const entry = this.#inFlight.add(request, { signal: controller.signal });
      // A session that ended needs no cancellation: nobody reads its streams any more.
      this.#routes.set(id, (message) => {
        if (!signal.aborted) send(message);
      });
      send(request);
      entry.markWritten();
      const response = await entry.response;
      if ("error" in response) throw McpError.fromObject(response.error);
      return response.result;
    } finally {
      clearTimeout(timer);
      unlinkCaller();
      signal.removeEventListener("abort", onEnded);
      this.#routes.delete(id);
    }
  }
}
