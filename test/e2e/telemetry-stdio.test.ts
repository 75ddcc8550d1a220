/**
 * A server run as a real child process over stdio continues the trace a request's `_meta`
 * carries (stdio has no headers: `_meta` is the only carrier).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, RawServer, REPO_ROOT } from "../../packages/tsmcp/src/transport/stdio/fixtures/harness.js";
import { traceparent } from "../helpers/otel.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/telemetry-stdio-server.ts", import.meta.url));
const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";

let server: RawServer;

beforeAll(() => {
  server = new RawServer({ command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: REPO_ROOT });
});

afterAll(async () => {
  await server?.stop();
});

describe("server spans over stdio", () => {
  it("continues the trace of the request's _meta, over a pipe", async () => {
    const echoed = await server.roundTrip(
      callTool(1, "echo", { text: "hi" }, { traceparent: traceparent(CLIENT_TRACE, CLIENT_SPAN) }),
    );
    expect(echoed.result).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    const listed = (await server.roundTrip(callTool(2, "spans"))) as {
      result?: { content: { text: string }[] };
    };
    const spans = JSON.parse(listed.result?.content[0]?.text ?? "[]");
    expect(spans).toEqual([
      {
        name: "tools/call echo",
        traceId: CLIENT_TRACE,
        parentSpanId: CLIENT_SPAN,
        attributes: {
          "mcp.method.name": "tools/call",
          "jsonrpc.request.id": "1",
          "mcp.protocol.version": "2026-07-28",
          "network.transport": "pipe",
          "tsmcp.era": "stateless",
          "tsmcp.mrtr.round": 1,
          "tsmcp.result_type": "complete",
          "gen_ai.tool.name": "echo",
          "gen_ai.operation.name": "execute_tool",
        },
      },
    ]);
  });
});
