import { afterEach, describe, expect, it } from "vitest";
import { post, SseReader } from "../http-test-fixtures.js";
import {
  callTool,
  type FrontEnd,
  initialize,
  legacyHeaders,
  legacyRequest,
  nodeFrontEnd,
  type Served,
  scriptedDispatcher,
  webFrontEnd,
} from "./session-test-fixtures.js";

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
] as [string, FrontEnd][])("a request the client cancelled, through %s", (_name, frontEnd) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("gets no result when it had sent nothing yet: its POST answers an SSE stream that ends at once", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const answer = callTool(served.url, sessionId, 5, "wait");
    await dispatcher.until(() => dispatcher.envs.length >= 2);
    expect((await cancel(served.url, sessionId, 5)).status).toBe(202);
    const response = await answer;
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await new SseReader(response).rest();
    expect(events.filter((event) => event.data !== "")).toEqual([]);
    expect(String(await dispatcher.waitAborted)).toContain("changed my mind");
  });

  it("gets no result on its SSE stream: the stream ends after what it carried", async () => {
    served = await frontEnd(scriptedDispatcher());
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await callTool(served.url, sessionId, 6, "notify-wait"));
    await reader.next(); // the priming event
    expect(await reader.nextMessage()).toMatchObject({ method: "notifications/progress" });
    expect((await cancel(served.url, sessionId, 6)).status).toBe(202);
    expect(await reader.rest()).toEqual([]);
  });

  it("without text/event-stream in Accept gets 202 and no body", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher);
    const sessionId = await initialize(served.url);
    const answer = post(served.url, legacyRequest(7, "tools/call", { name: "wait" }), {
      ...legacyHeaders(sessionId),
      Accept: "application/json",
    });
    await dispatcher.until(() => dispatcher.envs.length >= 2);
    await cancel(served.url, sessionId, 7);
    const response = await answer;
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });
});
