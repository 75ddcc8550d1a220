import { describe, expect, it } from "vitest";
import { McpError } from "../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { DEFAULT_BACK_CHANNEL_TIMEOUT_MS } from "../dispatcher.js";
import { BackChannel } from "./back-channel.js";

function channel(options: { timeoutMs?: number; writable?: boolean } = {}) {
  const sent: (JSONRPCRequest | JSONRPCNotification)[] = [];
  const warnings: string[] = [];
  const back = new BackChannel(
    {
      send: (message) => {
        if (options.writable === false) return false;
        sent.push(message);
        return true;
      },
      warn: (message) => warnings.push(message),
    },
    options.timeoutMs,
  );
  return { back, sent, warnings };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("BackChannel", () => {
  it("pins the default timeout at 60 s", () => {
    expect(DEFAULT_BACK_CHANNEL_TIMEOUT_MS).toBe(60_000);
  });

  it("writes each request with an id of its own and resolves with the result that answers it", async () => {
    const { back, sent } = channel();
    const first = back.request("roots/list", undefined);
    const second = back.request("elicitation/create", { message: "Region?" });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 0, method: "roots/list" },
      { jsonrpc: "2.0", id: 1, method: "elicitation/create", params: { message: "Region?" } },
    ]);
    expect(back.size).toBe(2);
    expect(back.resolve({ jsonrpc: "2.0", id: 1, result: { action: "decline" } })).toBe(true);
    expect(back.resolve({ jsonrpc: "2.0", id: 0, result: { roots: [] } })).toBe(true);
    expect(await second).toEqual({ action: "decline" });
    expect(await first).toEqual({ roots: [] });
    expect(back.size).toBe(0);
  });

  it("rejects with the client's code, message and data when it answers an error", async () => {
    const { back } = channel();
    const pending = back.request("sampling/createMessage", {});
    back.resolve({
      jsonrpc: "2.0",
      id: 0,
      error: { code: -1, message: "User rejected", data: { why: "no" } },
    });
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -1, message: "User rejected", data: { why: "no" } });
  });

  it("cancels on its signal: the client is told, the promise rejects with the reason", async () => {
    const { back, sent } = channel();
    const controller = new AbortController();
    const pending = back.request("elicitation/create", {}, { signal: controller.signal });
    controller.abort(new Error("user closed the tool"));
    expect(await rejection(pending)).toMatchObject({ message: "user closed the tool" });
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 0, reason: "user closed the tool" },
    });
    expect(back.resolve({ jsonrpc: "2.0", id: 0, result: {} })).toBe(false);
  });

  it("cancels when the client request it serves is cancelled (its scope)", async () => {
    const { back, sent } = channel();
    const scope = new AbortController();
    const pending = back.request("roots/list", undefined, {}, scope.signal);
    scope.abort(new DOMException("request cancelled by the client", "AbortError"));
    expect(await rejection(pending)).toMatchObject({ name: "AbortError" });
    expect(sent.map((message) => message.method)).toEqual(["roots/list", "notifications/cancelled"]);
  });

  it("times out with -32001 and cancels, after the channel's or the request's own timeout", async () => {
    const { back, sent } = channel({ timeoutMs: 10 });
    const error = await rejection(back.request("ping", undefined));
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32001, message: "Request timed out" });
    const own = await rejection(back.request("ping", undefined, { timeoutMs: 5 }));
    expect(own).toMatchObject({ code: -32001, data: { timeout: 5 } });
    expect(sent.filter((message) => message.method === "notifications/cancelled")).toHaveLength(2);
  });

  it("rejects waiting and later requests with -32600 once closed, sending nothing more", async () => {
    const { back, sent } = channel();
    const pending = back.request("ping", undefined);
    back.close();
    expect(await rejection(pending)).toMatchObject({ code: -32600 });
    expect(await rejection(back.request("ping", undefined))).toMatchObject({ code: -32600 });
    expect(sent).toHaveLength(1);
  });

  it("rejects with -32600 when the request cannot be written", async () => {
    const { back } = channel({ writable: false });
    expect(await rejection(back.request("ping", undefined))).toMatchObject({ code: -32600 });
    expect(back.size).toBe(0);
  });

  it("does not settle anything for a response to an unknown id", () => {
    const { back } = channel();
    expect(back.resolve({ jsonrpc: "2.0", id: 42, result: {} })).toBe(false);
    expect(back.resolve({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } })).toBe(false);
  });
});
