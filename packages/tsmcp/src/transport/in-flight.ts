/**
 * The in-flight requests of one stdio client connection: which request a response answers (its
 * id), which request a notification belongs to (its subscription id, its progress token, or the
 * id a server-sent `notifications/cancelled` names), and cancellation through an AbortSignal.
 * No I/O: the transport writes what this table asks it to.
 * Spec: basic/index §Requests (ids unique in flight), basic/patterns/progress,
 * basic/patterns/cancellation, basic/patterns/subscriptions.
 */
import { deferred } from "../protocol/async.js";
import {
  isRequestId,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from "../protocol/jsonrpc.js";
import { META } from "../protocol/versions.js";
import { abortSourceOf } from "./abort-source.js";
import { TransportError, type TransportRequestOptions } from "./transport.js";

/** A notification sink. */
export type NotificationHandler = (notification: JSONRPCNotification) => void;

/** What the table asks of its transport. */
export interface InFlightHooks {
  /**
   * A written request was aborted by its signal: tell the server with
   * `notifications/cancelled {requestId: id, reason}` (`reason` is the abort reason as text).
   */
  onCancel(id: RequestId, reason: string): void;
  /** A notification handler threw. */
  onHandlerError(error: Error): void;
}

/** One registered request. */
export interface InFlightRequest {
  /** Settles with the response, or rejects (cancelled, failed, connection lost). */
  readonly response: Promise<JSONRPCResponse>;
  /** True until the request settles. */
  readonly active: boolean;
  /** Records that the request reached the server, so an abort sends `notifications/cancelled`. */
  markWritten(): void;
  /** Rejects the request with `error` and forgets it (no-op once settled). */
  fail(error: unknown): void;
}

interface Entry {
  readonly id: RequestId;
  readonly resolve: (response: JSONRPCResponse) => void;
  readonly reject: (reason: unknown) => void;
  readonly onNotification: NotificationHandler | undefined;
  readonly progressToken: RequestId | undefined;
  /** Removes the abort listener of the request's signal. */
  stopListening: () => void;
  written: boolean;
}

/** The `_meta.progressToken` of a request, when it has a valid one. */
export function progressTokenOf(request: JSONRPCRequest): RequestId | undefined {
  const meta = request.params?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = (meta as Record<string, unknown>)[META.progressToken];
  return isRequestId(token) ? token : undefined;
}

function subscriptionIdOf(notification: JSONRPCNotification): unknown {
  const meta = notification.params?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[META.subscriptionId];
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error && reason.message.length > 0) return reason.message;
  if (typeof reason === "string" && reason.length > 0) return reason;
  return "request cancelled";
}

/**
 * The table of in-flight requests of one connection. Each request is forgotten (id, progress
 * token, abort listener) the moment it settles.
 */
export class InFlightRequests {
  readonly #hooks: InFlightHooks;
  readonly #byId = new Map<RequestId, Entry>();
  readonly #byProgressToken = new Map<RequestId, Entry>();

  constructor(hooks: InFlightHooks) {
    this.#hooks = hooks;
  }

  /** How many requests are in flight. */
  get size(): number {
    return this.#byId.size;
  }

  /**
   * Registers `request`. Its `signal`, when it aborts, rejects the request with the signal's
   * reason (and calls `onCancel` if it was written).
   *
   * @throws the signal's reason when it is already aborted; TransportError when the id, or the
   *   request's `_meta.progressToken`, is already in flight.
   */
  add(
    request: JSONRPCRequest,
    options: Pick<TransportRequestOptions, "signal" | "onNotification">,
  ): InFlightRequest {
    const { id } = request;
    const { onNotification } = options;
    const abort = abortSourceOf(options);
    if (abort?.aborted) throw abort.reason;
    if (this.#byId.has(id)) {
      throw new TransportError(`a request with id ${JSON.stringify(id)} is already in flight`);
    }
    const progressToken = progressTokenOf(request);
    if (progressToken !== undefined && this.#byProgressToken.has(progressToken)) {
      throw new TransportError(
        `progress token ${JSON.stringify(progressToken)} is already used by a request in flight`,
      );
    }
    // It may reject (abort, exit) before the caller gets it; the caller's handlers still run.
    const { promise: response, resolve, reject } = deferred<JSONRPCResponse>({ handled: true });
    const entry: Entry = {
      id,
      resolve,
      reject,
      onNotification,
      progressToken,
      stopListening: () => {},
      written: false,
    };
    this.#byId.set(id, entry);
    if (progressToken !== undefined) this.#byProgressToken.set(progressToken, entry);
    if (abort !== undefined) {
      entry.stopListening = abort.onAbort((reason) => {
        if (!this.#forget(entry)) return;
        if (entry.written) this.#hooks.onCancel(id, describeReason(reason));
        reject(reason);
      });
    }
    const isActive = () => this.#byId.get(id) === entry;
    return {
      response,
      get active() {
        return isActive();
      },
      markWritten: () => {
        entry.written = true;
      },
      fail: (error) => {
        if (this.#forget(entry)) reject(error);
      },
    };
  }

  /**
   * Settles the request `response` answers. Returns false when none is in flight with its id (a
   * late answer to a cancelled request, which the spec says to ignore) or it has no id.
   */
  resolve(response: JSONRPCResponse): boolean {
    const entry = response.id === undefined ? undefined : this.#byId.get(response.id);
    if (entry === undefined) return false;
    this.#forget(entry);
    entry.resolve(response);
    return true;
  }

  /**
   * Delivers a server notification to the request it belongs to (that request's `onNotification`),
   * or to `fallback` when it belongs to none or that request has no handler. Ownership: the
   * `_meta` subscription id of a listen stream, the `progressToken` of a progress notification,
   * or the `requestId` of a server-sent `notifications/cancelled`, which then also ends that
   * request with a TransportError (the server tore the stream down; no response follows).
   */
  deliver(notification: JSONRPCNotification, fallback: NotificationHandler | undefined): void {
    const entry = this.#ownerOf(notification);
    const handler = entry?.onNotification ?? fallback;
    if (handler !== undefined) {
      try {
        handler(notification);
      } catch (error) {
        this.#hooks.onHandlerError(new TransportError("a notification handler threw", { cause: error }));
      }
    }
    if (entry !== undefined && notification.method === "notifications/cancelled" && this.#forget(entry)) {
      const reason = notification.params?.reason;
      const why = typeof reason === "string" && reason.length > 0 ? `: ${reason}` : "";
      entry.reject(new TransportError(`the MCP server cancelled request ${JSON.stringify(entry.id)}${why}`));
    }
  }

  /** Rejects every in-flight request with `error` and forgets them. */
  rejectAll(error: unknown): void {
    for (const entry of [...this.#byId.values()]) {
      this.#forget(entry);
      entry.reject(error);
    }
  }

  #ownerOf(notification: JSONRPCNotification): Entry | undefined {
    const subscriptionId = subscriptionIdOf(notification);
    if (isRequestId(subscriptionId) && this.#byId.has(subscriptionId)) return this.#byId.get(subscriptionId);
    const params = notification.params;
    if (notification.method === "notifications/progress" && isRequestId(params?.progressToken)) {
      return this.#byProgressToken.get(params.progressToken);
    }
    if (notification.method === "notifications/cancelled" && isRequestId(params?.requestId)) {
      return this.#byId.get(params.requestId);
    }
    return undefined;
  }

  /** Removes `entry` from the table; false when it had already settled. */
  #forget(entry: Entry): boolean {
    if (this.#byId.get(entry.id) !== entry) return false;
    this.#byId.delete(entry.id);
    if (entry.progressToken !== undefined && this.#byProgressToken.get(entry.progressToken) === entry) {
      this.#byProgressToken.delete(entry.progressToken);
    }
    entry.stopListening();
    return true;
  }
}
