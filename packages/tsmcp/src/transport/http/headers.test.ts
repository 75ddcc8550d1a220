import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeHeaderValue,
  encodeHeaderValue,
  MCP_HEADERS,
  mcpNameOf,
  protocolVersionOf,
  requestMetadataHeaders,
} from "./headers.js";

describe("encodeHeaderValue", () => {
  it.each([
    [" us-west1", "=?base64?IHVzLXdlc3Qx?="],
    ["日本語", "=?base64?5pel5pys6Kqe?="],
    ["true", "true"],
    ["42", "42"],
    ["", ""],
    ["us-west1", "us-west1"],
    ["a value with inner spaces", "a value with inner spaces"],
  ])("encodes %j as %j (the spec's table)", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it.each([
    ["a trailing space ", "leading/trailing space"],
    ["\tleading tab", "leading tab"],
    ["inner\ttab", "control character (tab)"],
    ["line\nbreak", "control character (LF)"],
    ["del\u007f", "DEL"],
    ["café", "non-ASCII"],
    ["=?base64?SGVsbG8=?=", "a value that looks like the sentinel"],
  ])("wraps %j in the base64 sentinel (%s)", (value) => {
    const encoded = encodeHeaderValue(value);
    expect(encoded).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
    expect(decodeHeaderValue(encoded)).toEqual({ kind: "base64", value });
  });

  it("leaves values that only resemble the sentinel in another case or without the suffix alone", () => {
    expect(encodeHeaderValue("=?BASE64?SGVsbG8=?=")).toBe("=?BASE64?SGVsbG8=?=");
    expect(encodeHeaderValue("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
  });
});

describe("decodeHeaderValue", () => {
  it("decodes the spec's sentinels", () => {
    expect(decodeHeaderValue("=?base64?IHVzLXdlc3Qx?=")).toEqual({ kind: "base64", value: " us-west1" });
    expect(decodeHeaderValue("=?base64?5pel5pys6Kqe?=")).toEqual({ kind: "base64", value: "日本語" });
  });

  it("reads a plain value as a literal", () => {
    expect(decodeHeaderValue("echo")).toEqual({ kind: "literal", value: "echo" });
    expect(decodeHeaderValue("")).toEqual({ kind: "literal", value: "" });
  });

  it("reads a wrong-case =?BASE64? prefix as a literal", () => {
    expect(decodeHeaderValue("=?BASE64?SGVsbG8=?=")).toEqual({
      kind: "literal",
      value: "=?BASE64?SGVsbG8=?=",
    });
  });

  it("reads a sentinel without its ?= suffix as a literal", () => {
    expect(decodeHeaderValue("=?base64?SGVsbG8=")).toEqual({ kind: "literal", value: "=?base64?SGVsbG8=" });
  });

  it("decodes an empty sentinel to the empty string", () => {
    expect(decodeHeaderValue("=?base64??=")).toEqual({ kind: "base64", value: "" });
  });

  it.each([
    ["=?base64?SGVsbG8?=", "missing padding"],
    ["=?base64?SGVs!!!bG8=?=", "characters outside the alphabet"],
    ["=?base64?SGVsbG8==?=", "too much padding"],
    ["=?base64?SGVs bG8=?=", "an inner space"],
    ["=?base64?SGVsbG9=?=", "non-zero trailing bits (not canonical)"],
    ["=?base64?SGVsbG8-?=", "the URL-safe alphabet"],
    ["=?base64?/w==?=", "bytes that are not UTF-8"],
  ])("refuses %j (%s)", (raw) => {
    expect(decodeHeaderValue(raw).kind).toBe("invalid");
  });

  it("round-trips every string through encode and decode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        const decoded = decodeHeaderValue(encodeHeaderValue(value));
        expect(decoded.kind === "invalid" ? undefined : decoded.value).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it("round-trips strings built from the characters that matter", () => {
    const tricky = fc.constantFrom(" ", "\t", "=", "?", "b", "a", "s", "e", "6", "4", "é", "\u0000", "x");
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 16 }), (parts) => {
        const value = parts.join("");
        const encoded = encodeHeaderValue(value);
        const decoded = decodeHeaderValue(encoded);
        expect(decoded.kind === "invalid" ? undefined : decoded.value).toBe(value);
        expect(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$|^$/.test(encoded)).toBe(true);
      }),
    );
  });
});

describe("request metadata", () => {
  it("spells the header names as the spec does", () => {
    expect(MCP_HEADERS).toEqual({
      protocolVersion: "MCP-Protocol-Version",
      method: "Mcp-Method",
      name: "Mcp-Name",
      paramPrefix: "Mcp-Param-",
    });
  });

  it("takes Mcp-Name from params.name for tools/call and prompts/get and from params.uri for resources/read", () => {
    expect(mcpNameOf("tools/call", { name: "echo" })).toBe("echo");
    expect(mcpNameOf("prompts/get", { name: "brief" })).toBe("brief");
    expect(mcpNameOf("resources/read", { uri: "test://a", name: "x" })).toBe("test://a");
    expect(mcpNameOf("tools/list", { name: "echo" })).toBeUndefined();
    expect(mcpNameOf("tools/call", { name: 7 })).toBeUndefined();
  });

  it("reads the protocol version only when _meta carries it as a string", () => {
    expect(protocolVersionOf({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } })).toBe(
      "2026-07-28",
    );
    expect(protocolVersionOf({ _meta: { "io.modelcontextprotocol/protocolVersion": 2026 } })).toBeUndefined();
    expect(protocolVersionOf({})).toBeUndefined();
    expect(protocolVersionOf(undefined)).toBeUndefined();
  });

  it("derives the standard headers of a request, encoding Mcp-Name", () => {
    const params = { name: "日本語", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
    expect(requestMetadataHeaders({ method: "tools/call", params })).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "=?base64?5pel5pys6Kqe?=",
    });
    expect(requestMetadataHeaders({ method: "notifications/initialized" })).toEqual({
      "Mcp-Method": "notifications/initialized",
    });
  });
});
