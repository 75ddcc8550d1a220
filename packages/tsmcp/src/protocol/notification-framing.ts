/**
 * The framing rules of a client -> server notification, checked before anything acts on it: a
 * method the protocol defines as a request must carry an `id` (without one it is not a
 * notification the receiver may silently take), and a notification the protocol defines must carry
 * params of its shape. Unknown notification methods pass (a receiver ignores what it does not
 * know). Spec: basic/index §Notifications, basic/patterns/cancellation, basic/patterns/progress;
 * 2025-11-25 basic/utilities/cancellation (`requestId` optional there).
 */
import type * as z from "zod";
import { McpError } from "./errors.js";
import type { JSONRPCNotification } from "./jsonrpc.js";
import { HANDSHAKE_ERA_REQUEST_METHODS, METHODS } from "./methods.js";
import { RequestIdSchema } from "./schema/base.js";
import { CancelledNotificationParamsSchema, ProgressNotificationParamsSchema } from "./schema/methods.js";

/**
 * Every method either revision defines as a request, in either direction: the 2026-07-28 table,
 * the 2025 handshake-era methods, and the server -> client requests of a 2025 session.
 */
const REQUEST_METHODS: ReadonlySet<string> = new Set([
  ...Object.keys(METHODS),
  ...HANDSHAKE_ERA_REQUEST_METHODS,
]);

/** `notifications/cancelled` of the 2025 revisions: `requestId` may be absent. */
const LegacyCancelledParamsSchema = CancelledNotificationParamsSchema.extend({
  requestId: RequestIdSchema.optional(),
});

/** Which revision's rules a notification is read by. */
export type NotificationEra = "modern" | "legacy";

/** The params schema of a client -> server notification the protocol defines, by era. */
function paramsSchemaOf(method: string, era: NotificationEra): z.ZodType | undefined {
  switch (method) {
    case "notifications/cancelled":
      return era === "modern" ? CancelledNotificationParamsSchema : LegacyCancelledParamsSchema;
    case "notifications/progress":
      return ProgressNotificationParamsSchema;
    default:
      return undefined;
  }
}

/** The first issue of a failed parse as `path: message` (the path omitted at the top). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid";
  const path = issue.path.map(String).join(".");
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}

/**
 * Checks one incoming notification against the framing rules of `era` (`"legacy"` for a 2025
 * handshake-era peer, whose `notifications/cancelled` may omit `requestId`).
 *
 * @returns `undefined` when it may be acted on; else the -32600 `McpError` ("Invalid Request: ...")
 *   naming the problem: a request method without an `id`, or params of a defined notification
 *   that do not match its schema (`notifications/cancelled` with a `requestId` that is neither a
 *   string nor an integer, `notifications/progress` without a numeric `progress`, ...). Only
 *   methods the protocol defines are named, so nothing the peer chose is echoed. Never throws.
 */
export function notificationFramingError(
  notification: JSONRPCNotification,
  era: NotificationEra,
): McpError | undefined {
  const { method } = notification;
  if (REQUEST_METHODS.has(method)) {
    return McpError.of("INVALID_REQUEST", `Invalid Request: '${method}' is a request and needs an "id"`);
  }
  const schema = paramsSchemaOf(method, era);
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(notification.params ?? {});
  if (parsed.success) return undefined;
  return McpError.of(
    "INVALID_REQUEST",
    `Invalid Request: malformed ${method} params: ${firstIssue(parsed.error)}`,
  );
}
