/**
 * The nesting limit of the Streamable HTTP server, over real HTTP on 127.0.0.1: a message nested
 * deeper than `maxJsonDepth` is answered -32600 before any middleware or handler runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { DEFAULT_MAX_JSON_DEPTH } from "../../../protocol/jsonrpc.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { baseHeaders, META } from "../http-test-fixtures.js";
import { ENTRIES, type Served } from "../node/entries-test-fixtures.js";
import { createHttpHandler } from "./server-handler.js";

/** A `tools/call` of `deep` whose `arguments.v` is `levels` arrays deep (the message: `levels + 3`). */
function deepCall(id: number, levels: number): string {
  const value = `${"[".repeat(levels)}${"]".repeat(levels)}`;
  const meta = JSON.stringify(META);
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"deep","arguments":{"v":${value}},"_meta":${meta}}}`;
}

/** An `MCPServer` whose middleware and `deep` tool record that they ran. */
function recordingServer() {
  const ran: string[] = [];
  const mcp = new MCPServer("depth", { requestStateSecurity: testRequestStateSecurity() });
  mcp.use(async (request, next) => {
    ran.push(`middleware ${request.method}`);
    return next(request);
  });
  mcp.tool("deep", { inputSchema: z.object({ v: z.unknown() }) }, () => {
    ran.push("handler");
    return "ran";
  });
  return { mcp, ran };
}

let handle: Served | undefined;

afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function call(url: URL, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...baseHeaders("tools/call"), "Mcp-Name": "deep" },
    body,
  });
  expect(response.headers.get("content-type")).toBe("application/json");
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe.each(ENTRIES)("maxJsonDepth over HTTP through $name", ({ start }) => {
  it("refuses 5,000-deep arguments with -32600 (400) keeping the id, before middleware or handler", async () => {
    const { mcp, ran } = recordingServer();
    handle = await start(mcp);
    const { status, json } = await call(handle.url, deepCall(9, 5_000));
    expect(status).toBe(400);
    expect(json).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: {
        code: -32600,
        message: `Invalid Request: nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
      },
    });
    expect(ran).toEqual([]);
  });

  it("serves a message exactly at the default limit, and refuses one a level deeper", async () => {
    const { mcp, ran } = recordingServer();
    handle = await start(mcp);
    const atLimit = await call(handle.url, deepCall(1, DEFAULT_MAX_JSON_DEPTH - 3));
    expect(atLimit.status).toBe(200);
    expect(atLimit.json).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "ran" }] } });
    expect(ran).toEqual(["middleware tools/call", "handler"]);
    const over = await call(handle.url, deepCall(2, DEFAULT_MAX_JSON_DEPTH - 2));
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(ran).toHaveLength(2);
  });

  it("applies a configured limit", async () => {
    const { mcp, ran } = recordingServer();
    handle = await start(mcp, { maxJsonDepth: 10 });
    expect((await call(handle.url, deepCall(1, 7))).status).toBe(200);
    const over = await call(handle.url, deepCall(2, 8));
    expect(over.json).toMatchObject({
      id: 2,
      error: { code: -32600, message: expect.stringContaining("10") },
    });
    expect(ran).toEqual(["middleware tools/call", "handler"]);
  });
});

describe("maxJsonDepth", () => {
  it.each([
    [{ maxJsonDepth: 0 }, RangeError],
    [{ maxJsonDepth: 1.5 }, RangeError],
    [{ maxJsonDepth: "64" }, TypeError],
  ])("refuses the options %j at construction", (options, errorClass) => {
    const { mcp } = recordingServer();
    expect(() => createHttpHandler(mcp, options as never)).toThrow(errorClass);
    expect(() => createHttpHandler(mcp, options as never)).toThrow(/maxJsonDepth/);
  });
});
