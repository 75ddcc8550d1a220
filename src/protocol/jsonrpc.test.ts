import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyMessage, errorResponse, parseMessage } from "./jsonrpc.js";

describe("parseMessage", () => {
  it("reads a request, keeping an id of 0 and a string id", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{}}')).toEqual({
      kind: "request",
      message: { jsonrpc: "2.0", id: 0, method: "tools/list", params: {} },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"m"}')).toMatchObject({
      kind: "request",
      message: { id: "a" },
    });
  });

  it("reads a notification (no id) and both kinds of response", () => {
    expect(
      parseMessage('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}').kind,
    ).toBe("notification");
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}').kind).toBe("response");
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x","data":[1]}}')).toEqual(
      {
        kind: "response",
        message: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "x", data: [1] } },
      },
    );
  });

  it("answers malformed JSON with -32700", () => {
    const parsed = parseMessage("{not json");
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind === "invalid")
      expect(parsed.error.toObject()).toEqual({ code: -32700, message: "Parse error: Invalid JSON" });
  });

  it("refuses a batch with -32600 saying batches are not supported", () => {
    const parsed = parseMessage('[{"jsonrpc":"2.0","id":1,"method":"a"}]');
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind === "invalid") {
      expect(parsed.error.code).toBe(-32600);
      expect(parsed.error.message).toContain("batch");
    }
  });

  it.each([
    ['{"id":1,"method":"a"}', '"jsonrpc"'],
    ['{"jsonrpc":"1.0","id":1,"method":"a"}', '"jsonrpc"'],
    ['{"jsonrpc":"2.0","id":null,"method":"a"}', '"id"'],
    ['{"jsonrpc":"2.0","id":1.5,"method":"a"}', '"id"'],
    ['{"jsonrpc":"2.0","id":1,"method":""}', '"method"'],
    ['{"jsonrpc":"2.0","id":1,"method":"a","params":[1]}', '"params"'],
    ['{"jsonrpc":"2.0","id":1}', "expected"],
    ['{"jsonrpc":"2.0","result":{}}', '"id"'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}', '"error"'],
    ["42", "object"],
  ])("refuses %s with -32600 naming %s", (text, naming) => {
    const parsed = parseMessage(text);
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind === "invalid") {
      expect(parsed.error.code).toBe(-32600);
      expect(parsed.error.message).toContain(naming);
    }
  });

  it("echoes a readable id on an invalid message", () => {
    expect(classifyMessage({ jsonrpc: "1.0", id: 9, method: "a" })).toMatchObject({ kind: "invalid", id: 9 });
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const parsed = parseMessage(text);
        expect(["request", "notification", "response", "invalid"]).toContain(parsed.kind);
      }),
    );
  });
});

describe("errorResponse", () => {
  it("omits the id only when it is unknown", () => {
    expect(errorResponse(undefined, { code: -32700, message: "x" })).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "x" },
    });
    expect(errorResponse(0, { code: -32700, message: "x" })).toHaveProperty("id", 0);
  });
});
