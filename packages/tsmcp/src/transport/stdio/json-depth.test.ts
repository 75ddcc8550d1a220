/**
 * The nesting limit of the stdio loop: a line nested deeper than `maxJsonDepth` is answered -32600
 * and never dispatched.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { DEFAULT_MAX_JSON_DEPTH } from "../../protocol/jsonrpc.js";
import { MCPServer } from "../../server/mcp/server.js";
import { REQUEST_META } from "./fixtures/harness.js";
import { inProcess } from "./fixtures/in-process.js";
import { serveStdio } from "./server.js";

/** A `tools/call` line of `deep` whose `arguments.v` is `levels` arrays deep (the message: `levels + 3`). */
function deepCall(id: number, levels: number): string {
  const value = `${"[".repeat(levels)}${"]".repeat(levels)}`;
  const meta = JSON.stringify(REQUEST_META);
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"deep","arguments":{"v":${value}},"_meta":${meta}}}\n`;
}

function recordingServer() {
  const ran: string[] = [];
  const mcp = new MCPServer("depth");
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

describe("maxJsonDepth over stdio", () => {
  it("refuses 5,000-deep arguments with -32600 keeping the id, never dispatching them", async () => {
    const { mcp, ran } = recordingServer();
    const io = inProcess(mcp);
    io.stdin.write(deepCall(3, 5_000));
    await io.until(() => io.written.length === 1);
    expect(io.written[0]).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32600,
        message: `Invalid Request: nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
      },
    });
    expect(ran).toEqual([]);
    await io.handle.close();
  });

  it("serves a message exactly at the limit", async () => {
    const { mcp, ran } = recordingServer();
    const io = inProcess(mcp);
    io.stdin.write(deepCall(4, DEFAULT_MAX_JSON_DEPTH - 3));
    await io.until(() => io.written.length === 1);
    expect(io.written[0]).toMatchObject({ id: 4, result: { content: [{ type: "text", text: "ran" }] } });
    expect(ran).toEqual(["middleware tools/call", "handler"]);
    await io.handle.close();
  });

  it.each([
    [{ maxJsonDepth: 0 }, RangeError],
    [{ maxJsonDepth: Number.NaN }, RangeError],
    [{ maxJsonDepth: "64" }, TypeError],
  ])("refuses the options %j at construction", (options, errorClass) => {
    const { mcp } = recordingServer();
    const streams = { stdin: new PassThrough(), stdout: new PassThrough() };
    expect(() => serveStdio(mcp, { ...streams, ...(options as object) })).toThrow(errorClass);
    expect(() => serveStdio(mcp, { ...streams, ...(options as object) })).toThrow(/maxJsonDepth/);
  });
});
