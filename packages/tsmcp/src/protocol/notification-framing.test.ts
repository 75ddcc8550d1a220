import { describe, expect, it } from "vitest";
import type { JSONRPCNotification } from "./jsonrpc.js";
import { notificationFramingError } from "./notification-framing.js";

const note = (method: string, params?: Record<string, unknown>): JSONRPCNotification =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };

describe("notificationFramingError", () => {
  it.each(["tools/call", "initialize", "ping", "server/discover", "resources/subscribe"])(
    "refuses the request method %s sent without an id, in both eras",
    (method) => {
      for (const era of ["modern", "legacy"] as const) {
        const error = notificationFramingError(note(method, {}), era);
        expect(error?.code).toBe(-32600);
        expect(error?.message).toBe(`Invalid Request: '${method}' is a request and needs an "id"`);
      }
    },
  );

  it.each([{ bad: true }, 1.5, null, ["x"]])(
    "refuses a notifications/cancelled whose requestId is %j, in both eras",
    (requestId) => {
      for (const era of ["modern", "legacy"] as const) {
        const error = notificationFramingError(note("notifications/cancelled", { requestId }), era);
        expect(error?.code).toBe(-32600);
        expect(error?.message).toMatch(
          /^Invalid Request: malformed notifications\/cancelled params: requestId: /,
        );
      }
    },
  );

  it("requires a requestId at 2026-07-28 but not from a 2025 peer", () => {
    expect(notificationFramingError(note("notifications/cancelled", {}), "modern")?.code).toBe(-32600);
    expect(notificationFramingError(note("notifications/cancelled"), "legacy")).toBeUndefined();
    expect(
      notificationFramingError(note("notifications/cancelled", { reason: "done" }), "legacy"),
    ).toBeUndefined();
  });

  it("refuses a non-string reason and a progress notification without a numeric progress", () => {
    expect(
      notificationFramingError(note("notifications/cancelled", { requestId: 1, reason: 7 }), "modern")?.code,
    ).toBe(-32600);
    expect(
      notificationFramingError(
        note("notifications/progress", { progressToken: "t", progress: "half" }),
        "legacy",
      )?.message,
    ).toMatch(/notifications\/progress params: progress: /);
  });

  it("accepts well-formed notifications and passes unknown ones", () => {
    expect(
      notificationFramingError(note("notifications/cancelled", { requestId: "a", reason: "x" }), "modern"),
    ).toBe(undefined);
    expect(
      notificationFramingError(note("notifications/progress", { progressToken: 3, progress: 0.5 }), "legacy"),
    ).toBeUndefined();
    expect(notificationFramingError(note("notifications/initialized"), "legacy")).toBeUndefined();
    expect(notificationFramingError(note("notifications/anything", { what: [1] }), "modern")).toBeUndefined();
  });
});
