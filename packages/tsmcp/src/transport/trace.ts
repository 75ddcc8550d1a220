/**
 * A transport that reports every JSON-RPC message it carries, both ways, to an observer, and
 * otherwise behaves exactly as the transport it wraps: for a wire log (`tsmcp -vv`), a debugger, or
 * a test that wants to see what was said without a mock. Spec: basic (JSON-RPC messages).
 */
import { ERRORS, McpError } from "../protocol/errors.js";
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest } from "../protocol/jsonrpc.js";
import type { IncomingRequestOptions, Transport, TransportRequestOptions } from "./transport.js";

/** Which way a traced message went: `"sent"` from this client, `"received"` from the server. */
export type MessageDirection = "sent" | "received";

/**
 * Observes one message. Called synchronously, in the order the transport sends and delivers them;
 * what it throws is ignored (it never breaks the connection). It must not change the message.
 */
export type MessageObserver = (message: JSONRPCMessage, direction: MessageDirection) => void;

/**
 * Wraps `transport` so that `observe` sees each message: requests and notifications sent, responses
 * and notifications received (for a request or on their own), server -> client requests received
 * on a 2025-era session and the responses (results or errors) sent back. Every other behaviour,
 * `sendsHttpHeaders`, `networkTransport`, `setProtocolEra` and `notificationsReady` included, is the
 * wrapped transport's; so are its `url` and `sessionId` when it has them (Streamable HTTP).
 *
 * ```ts
 * const traced = traceTransport(transport, (message, direction) => console.error(direction, message));
 * ```
 *
 * @throws TypeError when `transport` is not a Transport or `observe` is not a function.
 */
export function traceTransport(transport: Transport, observe: MessageObserver): Transport {
  if (typeof transport?.request !== "function" || typeof transport.close !== "function") {
    throw new TypeError("traceTransport: transport must be a Transport (request, notify, close)");
  }
  if (typeof observe !== "function") throw new TypeError("traceTransport: observe must be a function");
  const see = (message: JSONRPCMessage, direction: MessageDirection) => {
    try {
      observe(message, direction);
    } catch {
      // An observer's failure is not the connection's.
    }
  };
  let onNotification: ((notification: JSONRPCNotification) => void) | undefined;
  let onRequest: Transport["onRequest"];
  const traced: Transport = {
    get sendsHttpHeaders() {
      return transport.sendsHttpHeaders;
    },
    get networkTransport() {
      return transport.networkTransport;
    },
    async request(request: JSONRPCRequest, options?: TransportRequestOptions) {
      see(request, "sent");
      const inner = options?.onNotification;
      const response = await transport.request(
        request,
        inner === undefined
          ? options
          : {
              ...options,
              onNotification: (notification) => {
                see(notification, "received");
                inner(notification);
              },
            },
      );
      see(response, "received");
      return response;
    },
    notify(notification) {
      see(notification, "sent");
      return transport.notify(notification);
    },
    get onNotification() {
      return onNotification;
    },
    set onNotification(handler) {
      onNotification = handler;
      transport.onNotification =
        handler === undefined
          ? undefined
          : (notification) => {
              see(notification, "received");
              handler(notification);
            };
    },
    get onRequest() {
      return onRequest;
    },
    set onRequest(handler) {
      onRequest = handler;
      transport.onRequest =
        handler === undefined
          ? undefined
          : async (request: JSONRPCRequest, options: IncomingRequestOptions) => {
              see(request, "received");
              try {
                const result = await handler(request, options);
                see({ jsonrpc: "2.0", id: request.id, result }, "sent");
                return result;
              } catch (error) {
                // What the transport answers: the McpError's code and message, else -32603.
                const { code, message } =
                  error instanceof McpError
                    ? error
                    : { code: ERRORS.INTERNAL_ERROR.code, message: "Internal error" };
                see({ jsonrpc: "2.0", id: request.id, error: { code, message } }, "sent");
                throw error;
              }
            };
    },
    close: () => transport.close(),
  };
  // What a session reads off the transport it was given for its spans: the HTTP URL and session id.
  for (const key of ["url", "sessionId"] as const) {
    if (key in transport) {
      Object.defineProperty(traced, key, {
        get: () => (transport as unknown as Record<string, unknown>)[key],
      });
    }
  }
  if (transport.notificationsReady !== undefined) {
    traced.notificationsReady = () => transport.notificationsReady?.() ?? Promise.resolve();
  }
  if (transport.setProtocolEra !== undefined) {
    traced.setProtocolEra = (era) => transport.setProtocolEra?.(era);
  }
  return traced;
}
