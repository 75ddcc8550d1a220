/**
 * Where the server's notifications go on the client: progress to the `onProgress` of the request
 * whose token it carries, log messages to the request's `onLog` or else the session's, everything
 * else to the session's listeners (`tap`, the 2025-era `listen`) and then to the request's
 * `onNotification` or else the session's. A transport hands a notification
 * in with its request when it can tell (the POST stream of Streamable HTTP), or on its own (stdio,
 * the GET stream); both reach the same places. Spec: basic/utilities/progress,
 * server/utilities/logging.
 */
import type { JSONRPCNotification } from "../protocol/jsonrpc.js";
import {
  type LoggingMessageNotificationParams,
  LoggingMessageNotificationParamsSchema,
  type ProgressNotificationParams,
  ProgressNotificationParamsSchema,
} from "../protocol/schema/methods.js";

/** The receivers of one request's notifications. */
export interface RequestReceivers {
  progressToken?: string;
  onProgress?: (progress: ProgressNotificationParams) => void;
  onLog?: (message: LoggingMessageNotificationParams) => void;
  onNotification?: (notification: JSONRPCNotification) => void;
}

/** Routes notifications to the requests in flight and to the session's receivers. */
export class NotificationRouter {
  readonly #progress = new Map<string, (progress: ProgressNotificationParams) => void>();
  readonly #onLog: RequestReceivers["onLog"];
  readonly #onNotification: RequestReceivers["onNotification"];
  readonly #tap: ((notification: JSONRPCNotification) => void) | undefined;

  /** `tap` sees every notification that is neither progress nor a log message, wherever it came. */
  constructor(
    session: Pick<RequestReceivers, "onLog" | "onNotification"> & {
      tap?: (notification: JSONRPCNotification) => void;
    },
  ) {
    this.#onLog = session.onLog;
    this.#onNotification = session.onNotification;
    this.#tap = session.tap;
  }

  /** Remembers a request's progress receiver until {@link untrack}. */
  track(progressToken: string, onProgress: (progress: ProgressNotificationParams) => void): void {
    this.#progress.set(progressToken, onProgress);
  }

  /** Forgets a request's progress receiver (it has its response). */
  untrack(progressToken: string): void {
    this.#progress.delete(progressToken);
  }

  /** Delivers a notification that came with no request. */
  receive(notification: JSONRPCNotification): void {
    if (notification.method === "notifications/progress") {
      const parsed = ProgressNotificationParamsSchema.safeParse(notification.params);
      if (parsed.success) this.#progress.get(String(parsed.data.progressToken))?.(parsed.data);
      return;
    }
    this.#deliver(notification, {});
  }

  /** The handler for the notifications one request brings. */
  forRequest(receivers: RequestReceivers): (notification: JSONRPCNotification) => void {
    return (notification) => {
      if (notification.method === "notifications/progress" && receivers.onProgress !== undefined) {
        const parsed = ProgressNotificationParamsSchema.safeParse(notification.params);
        if (parsed.success && parsed.data.progressToken === receivers.progressToken) {
          receivers.onProgress(parsed.data);
        }
        return;
      }
      this.#deliver(notification, receivers);
    };
  }

  #deliver(notification: JSONRPCNotification, receivers: RequestReceivers): void {
    const onLog = receivers.onLog ?? this.#onLog;
    if (notification.method === "notifications/message" && onLog !== undefined) {
      const parsed = LoggingMessageNotificationParamsSchema.safeParse(notification.params);
      if (parsed.success) onLog(parsed.data);
      return;
    }
    try {
      this.#tap?.(notification);
    } finally {
      (receivers.onNotification ?? this.#onNotification)?.(notification);
    }
  }
}
