import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { JSONRPCNotification, JSONRPCRequest } from "../protocol/jsonrpc.js";
import { InFlightRequests, progressTokenOf } from "./in-flight.js";
import { TransportError } from "./transport.js";

function request(id: string | number, meta: Record<string, unknown> = {}): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, name: "x" } };
}

function table() {
  const cancels: [string | number, string][] = [];
  const errors: Error[] = [];
  const requests = new InFlightRequests({
    onCancel: (id, reason) => cancels.push([id, reason]),
    onHandlerError: (error) => errors.push(error),
  });
  return { requests, cancels, errors };
}

const progress = (token: string | number, n: number): JSONRPCNotification => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, progress: n },
});

describe("InFlightRequests", () => {
  it("reads a progress token only when it is a string or an integer", () => {
    expect(progressTokenOf(request(1, { progressToken: "t" }))).toBe("t");
    expect(progressTokenOf(request(1, { progressToken: 4 }))).toBe(4);
    expect(progressTokenOf(request(1, { progressToken: 1.5 }))).toBeUndefined();
    expect(progressTokenOf({ jsonrpc: "2.0", id: 1, method: "m" })).toBeUndefined();
  });

  it("resolves a request with the response carrying its id, once", async () => {
    const { requests } = table();
    const pending = requests.add(request(1), {});
    expect(requests.resolve({ jsonrpc: "2.0", id: 2, result: {} })).toBe(false);
    expect(requests.resolve({ jsonrpc: "2.0", id: 1, result: { ok: true } })).toBe(true);
    expect(requests.resolve({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    await expect(pending.response).resolves.toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(requests.size).toBe(0);
  });

  it("tells 1 and '1' apart", () => {
    const { requests } = table();
    requests.add(request(1), {});
    expect(() => requests.add(request("1"), {})).not.toThrow();
    expect(() => requests.add(request(1), {})).toThrow(TransportError);
  });

  it("refuses a progress token already in flight and frees it when the request settles", () => {
    const { requests } = table();
    requests.add(request(1, { progressToken: "p" }), {});
    expect(() => requests.add(request(2, { progressToken: "p" }), {})).toThrow(/progress token "p"/);
    requests.resolve({ jsonrpc: "2.0", id: 1, result: {} });
    expect(() => requests.add(request(2, { progressToken: "p" }), {})).not.toThrow();
  });

  it("on abort rejects with the reason, and asks to cancel only a request that was written", async () => {
    const { requests, cancels } = table();
    const a = new AbortController();
    const b = new AbortController();
    const unwritten = requests.add(request("u"), { signal: a.signal });
    const written = requests.add(request("w"), { signal: b.signal });
    written.markWritten();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    a.abort(new Error("first"));
    b.abort("second");
    // No handler is attached yet: Node reports an unhandled rejection once the microtasks drain,
    // before the next turn of the event loop, so the turn below is when it would have fired.
    await new Promise((resolve) => setImmediate(resolve));
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toEqual([]);
    await expect(unwritten.response).rejects.toThrow("first");
    await expect(written.response).rejects.toBe("second");
    expect(cancels).toEqual([["w", "second"]]);
    expect(getEventListeners(a.signal, "abort")).toHaveLength(0);
    expect(requests.size).toBe(0);
  });

  it("throws the reason of a signal that is already aborted and registers nothing", () => {
    const { requests } = table();
    expect(() => requests.add(request(1), { signal: AbortSignal.abort("gone") })).toThrow("gone");
    expect(requests.size).toBe(0);
  });

  it("routes by subscription id, then progress token, else to the fallback", () => {
    const { requests } = table();
    const listen: JSONRPCNotification[] = [];
    const call: JSONRPCNotification[] = [];
    const fallback: JSONRPCNotification[] = [];
    requests.add(request("sub"), { onNotification: (n) => listen.push(n) });
    requests.add(request(9, { progressToken: 9 }), { onNotification: (n) => call.push(n) });
    const tagged: JSONRPCNotification = {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } },
    };
    requests.deliver(tagged, (n) => fallback.push(n));
    requests.deliver(progress(9, 1), (n) => fallback.push(n));
    requests.deliver(progress("unknown", 1), (n) => fallback.push(n));
    requests.deliver({ jsonrpc: "2.0", method: "notifications/message", params: {} }, (n) =>
      fallback.push(n),
    );
    expect(listen).toEqual([tagged]);
    expect(call).toEqual([progress(9, 1)]);
    expect(fallback.map((n) => n.method)).toEqual(["notifications/progress", "notifications/message"]);
  });

  it("ends a request the server cancels, after delivering the cancellation to it", async () => {
    const { requests } = table();
    const seen: string[] = [];
    const pending = requests.add(request(5), { onNotification: (n) => seen.push(n.method) });
    requests.deliver(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "bye" } },
      undefined,
    );
    await expect(pending.response).rejects.toThrow(
      new TransportError("the MCP server cancelled request 5: bye"),
    );
    expect(seen).toEqual(["notifications/cancelled"]);
  });

  it("reports a throwing handler and keeps routing", () => {
    const { requests, errors } = table();
    requests.deliver(progress(1, 1), () => {
      throw new Error("bug");
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.cause).toEqual(new Error("bug"));
  });

  it("rejects everything in flight at once, and fail() is a no-op after settling", async () => {
    const { requests } = table();
    const one = requests.add(request(1), {});
    const two = requests.add(request(2), {});
    const lost = new TransportError("gone");
    requests.rejectAll(lost);
    one.fail(new Error("later"));
    await expect(one.response).rejects.toBe(lost);
    await expect(two.response).rejects.toBe(lost);
    expect(one.active).toBe(false);
  });
});
