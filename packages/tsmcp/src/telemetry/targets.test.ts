/**
 * The target attributes both sides record: span names, the low-cardinality attributes metric
 * points share with spans, the resource URI for spans alone, result types and error types.
 */
import { describe, expect, it } from "vitest";
import { McpError } from "../protocol/errors.js";
import {
  errorTypeOf,
  MRTR_METHODS,
  resourceUriOf,
  resultTypeOf,
  spanNameOf,
  targetAttributes,
  targetOf,
} from "./targets.js";

describe("target attributes", () => {
  it("names spans after the tool or prompt a request names, else after the method", () => {
    expect(spanNameOf("tools/call", targetOf("tools/call", { name: "provision" }))).toBe(
      "tools/call provision",
    );
    expect(spanNameOf("prompts/get", targetOf("prompts/get", { name: "brief" }))).toBe("prompts/get brief");
    expect(spanNameOf("resources/read", targetOf("resources/read", { uri: "a://b", name: "x" }))).toBe(
      "resources/read",
    );
    expect(targetOf("tools/call", { name: 7 })).toBeUndefined();
  });

  it("gives a tool call its tool and operation name and a prompt its prompt name, and never a URI", () => {
    expect(targetAttributes("tools/call", "provision")).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "provision",
      "gen_ai.operation.name": "execute_tool",
    });
    expect(targetAttributes("prompts/get", "brief")).toEqual({
      "mcp.method.name": "prompts/get",
      "gen_ai.prompt.name": "brief",
    });
    expect(targetAttributes("resources/read", targetOf("resources/read", { uri: "a://b" }))).toEqual({
      "mcp.method.name": "resources/read",
    });
  });

  it("reads the resource URI of resources/read, subscribe and unsubscribe only", () => {
    expect(resourceUriOf("resources/read", { uri: "a://b" })).toBe("a://b");
    expect(resourceUriOf("resources/unsubscribe", { uri: "a://b" })).toBe("a://b");
    expect(resourceUriOf("resources/list", { uri: "a://b" })).toBeUndefined();
    expect([...MRTR_METHODS].sort()).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("classifies results and failures", () => {
    expect(resultTypeOf({ resultType: "input_required" })).toBe("input_required");
    expect(resultTypeOf({ resultType: "task" })).toBe("task");
    expect(resultTypeOf({ content: [] })).toBe("complete");
    expect(errorTypeOf(new McpError(-32602, "bad"))).toBe("-32602");
    expect(errorTypeOf(new RangeError("x"))).toBe("RangeError");
    expect(errorTypeOf("thrown")).toBe("unknown");
  });
});
