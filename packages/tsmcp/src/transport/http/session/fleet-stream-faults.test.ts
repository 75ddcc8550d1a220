/**
 * A request's SSE stream in a fleet whose event store fails: the stream's headers go out only with
 * a priming event the store took, so a client that got them can always resume the stream. While
 * the store cannot take it, the request is answered 503 with `Retry-After` (a retry later
 * succeeds) and its handler is aborted; it is never streamed without event ids.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { memoryState, type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { StateUnavailableError } from "../../../state/errors.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { initializeRequest, legacyHeaders, legacyRequest } from "./session-test-fixtures.js";

/** An event store whose engine can be taken down and brought back. */
class FlakyEventStore extends MemoryEventStore {
  down = false;

  override async append(
    sessionId: string,
    streamId: string,
    message: JSONRPCMessage | undefined,
  ): Promise<string> {
    if (this.down) throw new StateUnavailableError("the event engine is unreachable", { retryAfterMs: 2500 });
    return super.append(sessionId, streamId, message);
  }
}

const UNAVAILABLE = "Service Unavailable: session state is unreachable; retry later";

describe("a request's SSE stream in a fleet whose event store fails", () => {
  let fleet: Replicas | undefined;

  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it("answers 503 with Retry-After and aborts the handler rather than stream without event ids, and streams resumably once the store is back", async () => {
    const events = new FlakyEventStore();
    const aborted: string[] = [];
    fleet = await startReplicas(
      1,
      () => {
        const mcp = new MCPServer("stream-faults", {
          version: "1.0.0",
          logger: silentLogger,
          requestStateSecurity: testRequestStateSecurity(),
        });
        mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
          ctx.signal.addEventListener("abort", () => aborted.push(String(ctx.signal.reason)), { once: true });
          const answer = await ctx.elicit({
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
          return answer.action;
        });
        return mcp;
      },
      { state: { ...memoryState(), events }, http: { keepAliveMs: 0, logger: silentLogger } },
    );
    const init = await fleet.fetch(fleet.url, {
      method: "POST",
      headers: legacyHeaders(undefined, ""),
      body: JSON.stringify(initializeRequest()),
    });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get("mcp-session-id") as string;
    const ask = (id: number) =>
      fleet!.fetch(fleet!.url, {
        method: "POST",
        headers: legacyHeaders(sessionId),
        body: JSON.stringify(legacyRequest(id, "tools/call", { name: "ask", arguments: {} })),
      });

    events.down = true;
    const refused = await ask(2);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32603, message: UNAVAILABLE },
    });
    expect(aborted).toHaveLength(1);

    events.down = false;
    const streamed = await ask(3);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = streamed.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^id: \S+$/m);
    await reader.cancel();
  });
});
