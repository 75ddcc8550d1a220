import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyMessage, DEFAULT_MAX_JSON_DEPTH, errorResponse, parseMessage } from "./jsonrpc.js";

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

/** A request whose `params.arguments.v` is `levels` arrays deep: the message nests `levels + 3` deep. */
function nestedRequest(levels: number, id: number | string = 7): string {
  const value = `${"[".repeat(levels)}${"]".repeat(levels)}`;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"t","arguments":{"v":${value}}}}`;
}

describe("parseMessage with maxDepth", () => {
  it("pins the default depth servers apply", () => {
    expect(DEFAULT_MAX_JSON_DEPTH).toBe(64);
  });

  it("accepts a message exactly at the limit and refuses one a level deeper with -32600, keeping its id", () => {
    expect(parseMessage(nestedRequest(61), { maxDepth: 64 }).kind).toBe("request");
    const refused = parseMessage(nestedRequest(62, "deep"), { maxDepth: 64 });
    expect(refused).toMatchObject({ kind: "invalid", id: "deep" });
    if (refused.kind !== "invalid") throw new Error("expected a refusal");
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.httpStatus).toBe(400);
    expect(refused.error.message).toBe("Invalid Request: nested deeper than 64 levels");
  });

  it("refuses 5,000 levels, and applies no limit unless asked", () => {
    expect(parseMessage(nestedRequest(5_000), { maxDepth: 64 })).toMatchObject({ kind: "invalid", id: 7 });
    expect(parseMessage(nestedRequest(5_000)).kind).toBe("request");
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "m",
      params: { s: `${"[{".repeat(100)}\\"\\\\"${"[".repeat(100)}`, t: '\\"[[[[' },
    });
    expect(parseMessage(text, { maxDepth: 2 }).kind).toBe("request");
    expect(parseMessage(text, { maxDepth: 1 })).toMatchObject({ kind: "invalid", id: 1 });
  });

  it("still answers invalid JSON with -32700 and a deep message without a readable id with no id", () => {
    expect(parseMessage("[[[[", { maxDepth: 2 })).toMatchObject({ kind: "invalid", error: { code: -32700 } });
    const batch = parseMessage("[[[[]]]]", { maxDepth: 2 });
    expect(batch).toMatchObject({ kind: "invalid", error: { code: -32600 } });
    expect(batch).not.toHaveProperty("id");
  });

  it("measures depth as JSON.parse nests values", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    const depthOf = (value: unknown): number =>
      typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 8 }), (params, maxDepth) => {
        const message = { jsonrpc: "2.0", id: 1, method: "m", params: { p: params } };
        const parsed = parseMessage(JSON.stringify(message), { maxDepth });
        expect(parsed.kind === "invalid").toBe(depthOf(message) > maxDepth);
      }),
    );
  });
});
