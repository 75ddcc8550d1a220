/**
 * The host example against the counter example, over Streamable HTTP on 127.0.0.1: the model sees
 * `show_counter` but not the app-only `increment`; the call's UI is the counter's HTML.
 */
import { serve } from "tsmcp/node";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCounterServer } from "./counter.js";
import { callWithUi } from "./host.js";

describe("the MCP Apps host example", () => {
  it("calls show_counter and reads its UI; increment stays hidden from the model", async () => {
    const { mcp } = createCounterServer();
    const server = await serve(mcp, { host: "127.0.0.1", port: 0 });
    onTestFinished(async () => {
      await server.close();
      await mcp.close();
    });
    const call = await callWithUi(server.url, "show_counter");
    expect(call.modelTools).toEqual(["show_counter"]);
    expect(call.result.content).toEqual([{ type: "text", text: '{"count":0}' }]);
    expect(call.ui?.uri).toBe("ui://counter/view");
    expect(call.ui?.mimeType).toBe("text/html;profile=mcp-app");
    expect(call.ui?.html).toContain('request("ui/initialize"');
    expect(call.ui?.ui).toEqual({ prefersBorder: true });
    await expect(callWithUi(server.url, "increment")).rejects.toThrow(
      "the model sees no tool named increment",
    );
  });
});
