/**
 * `StdioClientTransport` answering a flood of server -> client requests: at most
 * `maxConcurrentServerRequests` handlers run at once and the rest are refused at once, against a
 * real child process that writes every request in one burst.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import type { JSONRPCNotification, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS } from "../incoming.js";
import { StdioClientTransport } from "./client.js";

const FLOOD_SERVER = fileURLToPath(new URL("./fixtures/flood-server.mjs", import.meta.url));

describe("StdioClientTransport bounding the server's concurrent requests", () => {
  it("pins the default bound at 16", () => {
    expect(DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS).toBe(16);
  });

  it("refuses maxConcurrentServerRequests that is not a positive integer, at construction", () => {
    for (const bad of [0, -1, 1.5]) {
      expect(() => new StdioClientTransport({ command: "node", maxConcurrentServerRequests: bad })).toThrow(
        new RangeError(
          `StdioClientTransport option "maxConcurrentServerRequests" must be an integer >= 1, got ${bad}`,
        ),
      );
    }
    expect(
      () =>
        new StdioClientTransport({ command: "node", maxConcurrentServerRequests: "4" as unknown as number }),
    ).toThrow(TypeError);
  });

  it("runs at most the bound of handlers and answers the overflow -32600 without calling onRequest", async () => {
    const count = 40;
    const limit = 4;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FLOOD_SERVER],
      maxConcurrentServerRequests: limit,
    });
    onTestFinished(() => transport.close());
    let running = 0;
    let peak = 0;
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    transport.onRequest = async () => {
      calls++;
      running++;
      peak = Math.max(peak, running);
      await gate;
      running--;
      return { action: "decline" };
    };
    const answers: JSONRPCResponse[] = [];
    transport.onNotification = (notification: JSONRPCNotification) => {
      if (notification.method !== "answered") return;
      answers.push(notification.params?.message as JSONRPCResponse);
      // Every refusal reached the server while the admitted handlers still wait.
      if (answers.length === count - limit) release();
    };
    const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "flood", params: { count } });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    expect(peak).toBe(limit);
    expect(calls).toBe(limit);
    const refused = answers.filter((answer) => "error" in answer);
    expect(refused).toHaveLength(count - limit);
    for (const answer of refused) {
      expect(answer).toMatchObject({
        error: { code: -32600, message: `Too many concurrent requests from the server (limit ${limit})` },
      });
    }
    const declined = answers.filter((answer) => "result" in answer);
    expect(declined.map((answer) => answer.id)).toEqual(["e0", "e1", "e2", "e3"]);
    expect(declined.every((answer) => "result" in answer && answer.result.action === "decline")).toBe(true);
  });
});
