/**
 * A `subscriptions/listen` stream on the client: one long-lived request whose notifications, after
 * the server's acknowledgement, go to the caller. Spec: basic/patterns/subscriptions.
 */
import { deferred } from "../protocol/async.js";
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import type { SubscriptionFilter } from "../protocol/schema/methods.js";
import { InvalidServerResponseError } from "./errors.js";
import type { ListenNotification, RequestOptions, Subscription } from "./session-options.js";

/** Sends the listen request (the session's `request`, bound). */
export type SendListen = (
  params: Record<string, unknown>,
  options: RequestOptions & { id: RequestId; onNotification: (n: JSONRPCNotification) => void },
) => Promise<unknown>;

/** Opens the stream with request id `id`. */
export function openSubscription(
  send: SendListen,
  id: RequestId,
  filter: SubscriptionFilter,
  onNotification: (notification: ListenNotification) => void,
): Subscription {
  const controller = new AbortController();
  const acknowledgement = deferred<SubscriptionFilter>({ handled: true });
  let isAcknowledged = false;
  const closed = send(
    { notifications: filter },
    {
      signal: controller.signal,
      timeoutMs: Number.POSITIVE_INFINITY,
      id,
      onNotification: (notification) => {
        if (notification.method === "notifications/subscriptions/acknowledged") {
          isAcknowledged = true;
          acknowledgement.resolve((notification.params?.notifications ?? {}) as SubscriptionFilter);
        } else if (isAcknowledged) {
          onNotification(notification);
        }
      },
    },
  ).then(
    () => {
      acknowledgement.reject(
        new InvalidServerResponseError("the subscription ended before it was acknowledged"),
      );
    },
    (error: unknown) => {
      acknowledgement.reject(error);
      if (!controller.signal.aborted) throw error;
    },
  );
  // A caller who never awaits `closed` must not get an unhandled rejection from it.
  closed.catch(() => {});
  return {
    id,
    acknowledged: acknowledgement.promise,
    closed,
    close: () => controller.abort(new Error("subscription closed")),
  };
}
