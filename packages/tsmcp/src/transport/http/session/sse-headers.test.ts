/**
 * A request answered as an SSE stream sends its headers only once the event store took the
 * stream's priming event: a client that got the headers can always resume (it has an event id),
 * and a server that dies before the store answered sends nothing, so a proxy may pass the request
 * to another instance. Spec (2025-11-25): basic/transports §Resumability and Redelivery.
 */

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { memoryState, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { post } from "../http-test-fixtures.js";
import { initialize, legacyHeaders, legacyRequest } from "./session-test-fixtures.js";

/** An event store whose appends wait, once closed, until it is opened again. */
class GatedEventStore extends MemoryEventStore {
  #closed = false;
  #waiting: (() => void)[] = [];

  close(): void {
    this.#closed = true;
  }

  open(): void {
    this.#closed = false;
    for (const release of this.#waiting.splice(0)) release();
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  override async append(sessionId: string, streamId: string, message: JSONRPCMessage | undefined) {
    if (this.#closed) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return super.append(sessionId, streamId, message);
  }
}

describe("an SSE answer on a handshake-era session", () => {
  it("sends its headers only once the event store took its priming event", async () => {
    const events = new GatedEventStore();
    const fleet = await startReplicas(
      1,
      () => {
        const mcp = new MCPServer("gated", {
          version: "1",
          logger: silentLogger,
          requestStateSecurity: testRequestStateSecurity(),
        });
        mcp.tool("progress", { inputSchema: z.object({}) }, async (_args, ctx) => {
          ctx.log("info", "working");
          return "done";
        });
        return mcp;
      },
      { http: { logger: silentLogger }, state: { ...memoryState(), events } },
    );
    try {
      const url = fleet.urls[0] as URL;
      const sessionId = await initialize(url);
      await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, legacyHeaders(sessionId));
      await post(url, legacyRequest(2, "logging/setLevel", { level: "info" }), legacyHeaders(sessionId));
      events.close();
      let answered = false;
      const answer = post(
        url,
        legacyRequest(3, "tools/call", { name: "progress", arguments: {} }),
        legacyHeaders(sessionId),
      ).then((response) => {
        answered = true;
        return response;
      });
      while (events.waiting === 0) await new Promise((resolve) => setImmediate(resolve));
      // The store holds the priming event back: no headers yet.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBe(false);
      events.open();
      const response = await answer;
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(await response.text()).toMatch(/^id: .+\nretry: \d+\ndata: \n\n/);
    } finally {
      await fleet.close();
    }
  });
});
