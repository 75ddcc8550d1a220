import { describe, expect, it } from "vitest";
import { McpError } from "../protocol/errors.js";
import { isParamHeaderMismatch } from "./mcp-param-headers.js";

describe("isParamHeaderMismatch", () => {
  it("recognises a -32020 about an Mcp-Param header, by data.header or by message", () => {
    expect(
      isParamHeaderMismatch(new McpError(-32020, "Header mismatch", { header: "Mcp-Param-Region" })),
    ).toBe(true);
    expect(isParamHeaderMismatch(new McpError(-32020, "missing MCP-PARAM-REGION header"))).toBe(true);
  });

  it("ignores other header mismatches and other errors", () => {
    expect(isParamHeaderMismatch(new McpError(-32020, "Header mismatch", { header: "Mcp-Name" }))).toBe(
      false,
    );
    expect(isParamHeaderMismatch(new McpError(-32602, "Mcp-Param-Region is bad"))).toBe(false);
    expect(isParamHeaderMismatch(new Error("Mcp-Param-Region"))).toBe(false);
  });
});
