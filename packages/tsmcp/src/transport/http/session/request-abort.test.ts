import { afterEach, describe, expect, it } from "vitest";
import type { Dispatcher, RequestEnvironment } from "../../dispatcher.js";
import { deferred, post, SseReader } from "../http-test-fixtures.js";
import {
  callTool,
  type FrontEnd,
  initialize,
  legacyHeaders,
  nodeFrontEnd,
  type Served,
  scriptedDispatcher,
  webFrontEnd,
} from "./session-test-fixtures.js";

/**
 * The scripted dispatcher plus two tools that read their signal only when the test says so:
 * `late` (nothing sent before), `late-after-notify` (a notification first, so its POST streams).
 * Each resolves `seen` with what its signal said at that moment.
 */
function lateReader() {
  const scripted = scriptedDispatcher();
  const gate = deferred<void>();
  const seen = deferred<{ aborted: boolean; reason: string }>();
  const started = deferred<void>();
  const dispatcher: Dispatcher = {
    async handle(message, env: RequestEnvironment) {
      const name = message.params?.name;
      if (
        !("id" in message) ||
        message.method !== "tools/call" ||
        (name !== "late" && name !== "late-after-notify")
      ) {
        return scripted.handle(message, env);
      }
      if (name === "late-after-notify") {
        env.notify?.({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: 1 },
        });
      }
      started.resolve();
      await gate.promise;
      const { signal } = env;
      seen.resolve({ aborted: signal.aborted, reason: String(signal.reason) });
      return { jsonrpc: "2.0", id: message.id, result: { content: [] } };
    },
  };
  return { dispatcher, scripted, gate, seen, started };
}

function cancel(url: URL, sessionId: string, requestId: number) {
  return post(
    url,
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "changed my mind" } },
    legacyHeaders(sessionId),
  );
}

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("the signal of a request on a session, through %s", (_name, frontEnd) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("aborts when the client closes the connection before anything was sent", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const client = new AbortController();
    const call = post(
      served.url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait", arguments: {} } },
      legacyHeaders(sessionId),
      client.signal,
    );
    await dispatcher.until(() => dispatcher.envs.length >= 2);
    client.abort();
    await expect(call).rejects.toThrow();
    expect(await dispatcher.waitAborted).toBeDefined();
  });

  it("reads as aborted when first read after notifications/cancelled named the request", async () => {
    const { dispatcher, gate, seen, started } = lateReader();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const call = callTool(served.url, sessionId, 5, "late");
    await started.promise;
    expect((await cancel(served.url, sessionId, 5)).status).toBe(202);
    gate.resolve();
    expect(await seen.promise).toEqual({ aborted: true, reason: "Error: changed my mind" });
    const events = await new SseReader(await call).rest();
    expect(events.filter((event) => event.data !== "")).toEqual([]);
  });

  it("stays live when the client closes the connection after the request's stream opened", async () => {
    const { dispatcher, gate, seen, started } = lateReader();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await callTool(served.url, sessionId, 6, "late-after-notify"));
    await started.promise;
    await reader.next(); // the priming event
    expect(await reader.nextMessage()).toMatchObject({ method: "notifications/progress" });
    await reader.cancel();
    gate.resolve();
    expect(await seen.promise).toEqual({ aborted: false, reason: "undefined" });
  });

  it("aborts every request in flight when the session ends, two sharing one id included", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const first = callTool(served.url, sessionId, 9, "wait");
    const second = callTool(served.url, sessionId, 9, "wait");
    await dispatcher.until(() => dispatcher.envs.length >= 3);
    const deleted = await fetch(served.url, {
      method: "DELETE",
      headers: { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" },
    });
    expect(deleted.status).toBe(204);
    const calls = dispatcher.envs.filter(({ message }) => message.method === "tools/call");
    expect(calls.map(({ env }) => env.signal.aborted)).toEqual([true, true]);
    await Promise.allSettled([first, second].map(async (answer) => (await answer).body?.cancel()));
  });
});
