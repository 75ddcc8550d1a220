import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS_EXTENSION } from "../../protocol/schema/tasks.js";
import { Server } from "../../server/server.js";
import { encodeHeaderValue } from "./headers.js";
import { baseHeaders, createFixture, META, post, rpc } from "./http-test-fixtures.js";
import { ENTRIES, type Served } from "./node/entries-test-fixtures.js";
import { validateRequestHeaders } from "./validate-headers.js";

const call = rpc(1, "tools/call", { name: "bar", arguments: {} });
const good = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "bar" };

function check(headers: Record<string, string>, request = call) {
  return validateRequestHeaders(request, new Headers(headers));
}

/** The `_meta` of a 2026-07-28 request that declares the tasks extension. */
const TASKS_META = {
  ...META,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
};

describe("validateRequestHeaders", () => {
  it("accepts headers that mirror the body", () => {
    expect(check(good)).toBeUndefined();
  });

  it("accepts header names in any case", () => {
    expect(
      check({ "mcp-protocol-version": "2026-07-28", "MCP-METHOD": "tools/call", "mcp-name": "bar" }),
    ).toBe(undefined);
  });

  it("names the header and both values when Mcp-Name disagrees with the body", () => {
    const error = check({ ...good, "Mcp-Name": "foo" });
    expect(error?.code).toBe(-32020);
    expect(error?.httpStatus).toBe(400);
    expect(error?.message).toBe(
      "Header mismatch: Mcp-Name header value 'foo' does not match body value 'bar'",
    );
    expect(error?.data).toEqual({ header: "Mcp-Name", headerValue: "foo", bodyValue: "bar" });
  });

  it("refuses a method value that differs only in case", () => {
    const error = check({ ...good, "Mcp-Method": "TOOLS/CALL" });
    expect(error?.code).toBe(-32020);
    expect(error?.message).toContain("Mcp-Method");
  });

  it.each(["Mcp-Method", "MCP-Protocol-Version", "Mcp-Name"])("refuses a request without %s", (header) => {
    const headers: Record<string, string> = { ...good };
    delete headers[header];
    const error = check(headers);
    expect(error?.code).toBe(-32020);
    expect(error?.message).toContain(`required ${header} header is missing`);
  });

  it("refuses a version header that differs from _meta", () => {
    const error = check({ ...good, "MCP-Protocol-Version": "2025-11-25" });
    expect(error?.message).toBe(
      "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'",
    );
  });

  it("leaves a body without a protocol version to the dispatcher, as long as the header is there", () => {
    const noVersion = rpc(1, "tools/list", {}, { "io.modelcontextprotocol/clientCapabilities": {} });
    expect(
      check({ "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" }, noVersion),
    ).toBeUndefined();
    expect(check({ "Mcp-Method": "tools/list" }, noVersion)?.code).toBe(-32020);
  });

  it("compares a base64-sentinel Mcp-Name after decoding it", () => {
    const request = rpc(1, "tools/call", { name: "日本語" });
    expect(check({ ...good, "Mcp-Name": "=?base64?5pel5pys6Kqe?=" }, request)).toBeUndefined();
  });

  it("refuses a sentinel whose base64 does not decode", () => {
    const error = check({ ...good, "Mcp-Name": "=?base64?YmF?=" });
    expect(error?.code).toBe(-32020);
    expect(error?.message).toContain("is not valid base64");
  });

  it("takes a wrong-case sentinel literally", () => {
    const request = rpc(1, "tools/call", { name: "=?BASE64?YmFy?=" });
    expect(check({ ...good, "Mcp-Name": "=?BASE64?YmFy?=" }, request)).toBeUndefined();
  });

  it("checks Mcp-Name against params.uri for resources/read", () => {
    const request = rpc(1, "resources/read", { uri: "test://a" }, META);
    const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read" };
    expect(check({ ...headers, "Mcp-Name": "test://a" }, request)).toBeUndefined();
    expect(check({ ...headers, "Mcp-Name": "test://b" }, request)?.code).toBe(-32020);
  });

  it("cuts long values in data the same way as in the message, so a 100 KB uri is not echoed", () => {
    const uri = `test://${"u".repeat(100_000)}`;
    const request = rpc(1, "resources/read", { uri }, META);
    const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read" };
    const cutUri = `${uri.slice(0, 200)}…`;
    const differs = check({ ...headers, "Mcp-Name": "test://b" }, request);
    expect(differs?.message).toBe(
      `Header mismatch: Mcp-Name header value 'test://b' does not match body value '${cutUri}'`,
    );
    expect(differs?.data).toEqual({ header: "Mcp-Name", headerValue: "test://b", bodyValue: cutUri });
    expect(check(headers, request)?.data).toEqual({ header: "Mcp-Name", bodyValue: cutUri });
    expect(check({ ...headers, "Mcp-Name": "test://\u0001" }, request)?.data).toEqual({
      header: "Mcp-Name",
      bodyValue: cutUri,
    });
    const longHeader = "h".repeat(10_000);
    expect(check({ ...good, "Mcp-Name": longHeader })?.data).toEqual({
      header: "Mcp-Name",
      headerValue: `${"h".repeat(200)}…`,
      bodyValue: "bar",
    });
    expect(check({ ...good, "Mcp-Name": `=?base64?${longHeader}?=` })?.data).toEqual({
      header: "Mcp-Name",
      headerValue: `=?base64?${"h".repeat(191)}…`,
      bodyValue: "bar",
    });
    expect(JSON.stringify(differs?.data).length + (differs?.message.length ?? 0)).toBeLessThan(1024);
  });

  it("never splits a surrogate pair when it cuts a value", () => {
    const name = `${"a".repeat(199)}\u{1F600}tail`;
    const error = check({ ...good, "Mcp-Name": "bar" }, rpc(1, "tools/call", { name }));
    expect(error?.data).toEqual({ header: "Mcp-Name", headerValue: "bar", bodyValue: `${"a".repeat(199)}…` });
    expect(error?.message).toContain(`body value '${"a".repeat(199)}…'`);
  });

  it("writes control and bidi characters of an echoed value as \\u escapes, in the message and in data", () => {
    const name = "evil\u202egnp.exe\u0007\u001b[31m\u2028";
    const shown = "evil\\u202egnp.exe\\u0007\\u001b[31m\\u2028";
    const error = check({ ...good, "Mcp-Name": "bar" }, rpc(1, "tools/call", { name }));
    expect(error?.message).toBe(
      `Header mismatch: Mcp-Name header value 'bar' does not match body value '${shown}'`,
    );
    expect(error?.data).toEqual({ header: "Mcp-Name", headerValue: "bar", bodyValue: shown });
    expect(check({ ...good, "Mcp-Name": encodeHeaderValue("x\u2066y\u0085") })?.data).toEqual({
      header: "Mcp-Name",
      headerValue: "x\\u2066y\\u0085",
      bodyValue: "bar",
    });
    const taskGet = rpc(1, "tasks/get", { taskId: "t\u200f1" }, TASKS_META);
    const missing = check({ "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get" }, taskGet);
    expect(missing?.data).toEqual({ header: "Mcp-Name", bodyValue: "t\\u200f1" });
    const echoed = [missing?.message, ...Object.values(missing?.data as Record<string, string>)].join();
    expect(echoed).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
    const plain = check({ ...good, "Mcp-Name": "bar" }, rpc(1, "tools/call", { name: "日本語 é" }));
    expect(plain?.data).toEqual({ header: "Mcp-Name", headerValue: "bar", bodyValue: "日本語 é" });
  });

  it("leaves a tasks/* body without a string taskId to the params validation, with or without Mcp-Name", () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method };
      for (const params of [{}, { taskId: 7 }, { taskId: null }, { taskId: { id: "t" } }]) {
        const request = rpc(1, method, params, TASKS_META);
        expect(check(headers, request), JSON.stringify([method, params])).toBeUndefined();
        expect(check({ ...headers, "Mcp-Name": "t" }, request), method).toBeUndefined();
      }
      expect(check(headers, rpc(1, method, { taskId: "t" }, TASKS_META))?.code).toBe(-32020);
    }
  });

  it("refuses a header value carrying raw non-ASCII bytes", () => {
    const request = rpc(1, "tools/call", { name: "é" });
    const error = check({ ...good, "Mcp-Name": "\u00e9" }, request);
    expect(error?.code).toBe(-32020);
    expect(error?.message).toContain("invalid characters");
  });
});

describe.each(ENTRIES)(
  "Mcp-Name over HTTP when the body has no string name or uri through $name",
  ({ start }) => {
    let handle: Served;
    beforeAll(async () => {
      handle = await start(createFixture((options) => new Server("headers", options)).dispatcher);
    });
    afterAll(() => handle.close());

    async function refusal(request: ReturnType<typeof rpc>, headers: Record<string, string>) {
      const response = await post(handle.url, request, headers);
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        id: unknown;
        error: { code: number; message: string; data: unknown };
      };
      expect(body.id).toBe(request.id);
      return body.error;
    }

    it.each([
      ["tools/call", { arguments: {} }, "name"],
      ["tools/call", { name: 42 }, "name"],
      ["prompts/get", {}, "name"],
      ["prompts/get", { name: null }, "name"],
      ["resources/read", {}, "uri"],
      ["resources/read", { uri: ["test://a"] }, "uri"],
    ])("answers %s with params %j and no Mcp-Name -32020, not -32602", async (method, params, field) => {
      const error = await refusal(rpc(30, method, params), baseHeaders(method));
      expect(error.code).toBe(-32020);
      expect(error.message).toBe(
        `Header mismatch: required Mcp-Name header is missing (the body has no string params.${field})`,
      );
      expect(error.data).toEqual({ header: "Mcp-Name" });
    });

    it("answers an Mcp-Name that mirrors nothing in the body with -32020 naming the header value", async () => {
      const error = await refusal(rpc(31, "tools/call", { arguments: {} }), {
        ...baseHeaders("tools/call"),
        "Mcp-Name": "echo",
      });
      expect(error.code).toBe(-32020);
      expect(error.message).toBe(
        "Header mismatch: Mcp-Name header value 'echo' has no body value to match (the body has no string params.name)",
      );
      expect(error.data).toEqual({ header: "Mcp-Name", headerValue: "echo" });
    });
  },
);

describe.each(ENTRIES)("tasks/* without a string taskId over HTTP through $name", ({ start }) => {
  let handle: Served;
  let server: Server;
  beforeAll(async () => {
    handle = await start(
      createFixture((options) => {
        server = new Server("headers", { ...options, tasks: {} });
        return server;
      }).dispatcher,
    );
  });
  afterAll(async () => {
    await handle.close();
    server.close();
  });

  it.each([
    ["tasks/get", {}],
    ["tasks/get", { taskId: 7 }],
    ["tasks/update", { taskId: null, inputResponses: {} }],
    ["tasks/cancel", { taskId: { id: "t" } }],
  ])("answers %s with params %j -32602 (Invalid params), not a header mismatch", async (method, params) => {
    for (const headers of [baseHeaders(method), { ...baseHeaders(method), "Mcp-Name": "t" }]) {
      const response = await post(handle.url, rpc(50, method, params, TASKS_META), headers);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe(50);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(/^Invalid params: taskId/);
    }
  });

  it("still answers a string taskId without Mcp-Name -32020", async () => {
    const response = await post(
      handle.url,
      rpc(51, "tasks/get", { taskId: "t" }, TASKS_META),
      baseHeaders("tasks/get"),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; data: unknown } };
    expect(body.error.code).toBe(-32020);
    expect(body.error.data).toEqual({ header: "Mcp-Name", bodyValue: "t" });
  });
});

describe.each(ENTRIES)("the order of header checks over HTTP through $name", ({ start }) => {
  let handle: Served;
  beforeAll(async () => {
    handle = await start(createFixture((options) => new Server("headers", options)).dispatcher);
  });
  afterAll(() => handle.close());

  const noName = (version: string) =>
    rpc(40, "tools/call", { arguments: {} }, { ...META, "io.modelcontextprotocol/protocolVersion": version });

  async function errorOf(request: ReturnType<typeof rpc>, headers: Record<string, string>) {
    const response = await post(handle.url, request, headers);
    expect(response.status).toBe(400);
    return ((await response.json()) as { error: { code: number; message: string; data: unknown } }).error;
  }

  it("answers an unsupported version header -32022 first, whatever else is wrong", async () => {
    const headers = { ...baseHeaders("tools/list"), "MCP-Protocol-Version": "2099-01-01" };
    const error = await errorOf(noName("2026-07-28"), headers);
    expect(error.code).toBe(-32022);
  });

  it("checks Mcp-Method before a version disagreement", async () => {
    const error = await errorOf(noName("2025-11-25"), baseHeaders("tools/list"));
    expect(error.code).toBe(-32020);
    expect(error.data).toEqual({ header: "Mcp-Method", headerValue: "tools/list", bodyValue: "tools/call" });
  });

  it("answers a version header that disagrees with _meta before Mcp-Name, even for a version the server does not serve", async () => {
    const error = await errorOf(noName("2025-11-25"), baseHeaders("tools/call"));
    expect(error.code).toBe(-32020);
    expect(error.data).toEqual({
      header: "MCP-Protocol-Version",
      headerValue: "2026-07-28",
      bodyValue: "2025-11-25",
    });
  });

  it("answers Mcp-Name before the body's own params or missing _meta version", async () => {
    const bare = rpc(41, "tools/call", { arguments: {} }, null);
    const error = await errorOf(bare, baseHeaders("tools/call"));
    expect(error.code).toBe(-32020);
    expect(error.data).toEqual({ header: "Mcp-Name" });
  });
});
