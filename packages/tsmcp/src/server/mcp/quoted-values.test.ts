/**
 * Error messages that quote a value the client sent (an unknown tool, prompt, method, resource or
 * template) cut it to `MAX_QUOTED_LENGTH` characters: a long value never makes a long answer.
 */
import { describe, expect, it } from "vitest";
import { MAX_QUOTED_LENGTH } from "../../protocol/text.js";
import { MCPServer } from "./server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One megabyte of one character. */
const HUGE = "x".repeat(1024 * 1024);
const CUT = `${"x".repeat(MAX_QUOTED_LENGTH)}…`;

async function errorOf(method: string, params: Record<string, unknown>) {
  const mcp = new MCPServer("quoted");
  mcp.resource("notes://{id}", {}, () => undefined);
  const response = await mcp.handle(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    { signal: new AbortController().signal },
  );
  if (response === undefined || !("error" in response)) throw new Error("expected an error response");
  expect(JSON.stringify(response).length).toBeLessThan(1_000);
  return response.error;
}

describe("a value the client sent, quoted back in an error", () => {
  it("pins the cut at 200 characters", () => {
    expect(MAX_QUOTED_LENGTH).toBe(200);
  });

  it("is cut in Unknown tool and Unknown prompt", async () => {
    expect(await errorOf("tools/call", { name: HUGE, arguments: {} })).toEqual({
      code: -32602,
      message: `Unknown tool: ${CUT}`,
    });
    expect(await errorOf("prompts/get", { name: HUGE })).toEqual({
      code: -32602,
      message: `Unknown prompt: ${CUT}`,
    });
  });

  it("is cut in Method not found", async () => {
    expect(await errorOf(HUGE, {})).toEqual({ code: -32601, message: `Method not found: ${CUT}` });
  });

  it("is cut in the data.uri of Resource not found and in Unknown resource template", async () => {
    expect(await errorOf("resources/read", { uri: `other://${HUGE}` })).toEqual({
      code: -32602,
      message: "Resource not found",
      data: { uri: `other://${"x".repeat(MAX_QUOTED_LENGTH - 8)}…` },
    });
    expect(
      await errorOf("completion/complete", {
        ref: { type: "ref/resource", uri: HUGE },
        argument: { name: "id", value: "" },
      }),
    ).toEqual({ code: -32602, message: `Unknown resource template: ${CUT}` });
  });

  it("is quoted whole when it fits", async () => {
    expect(await errorOf("tools/call", { name: "missing", arguments: {} })).toEqual({
      code: -32602,
      message: "Unknown tool: missing",
    });
  });
});
