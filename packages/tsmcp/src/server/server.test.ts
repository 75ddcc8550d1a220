import { describe, expect, it } from "vitest";
import { requestMeta, rpc } from "../../../../test/helpers/meta.js";
import { McpError } from "../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCResponse } from "../protocol/jsonrpc.js";
import type { ElicitResult } from "../protocol/schema/input.js";
import { elicitationRequest, inputRequired } from "./input-required.js";
import type { Logger } from "./logger.js";
import { Server } from "./server.js";

const ASK = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

function capturingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: (message, fields) => lines.push({ level: "debug", message, fields }),
    info: (message, fields) => lines.push({ level: "info", message, fields }),
    warn: (message, fields) => lines.push({ level: "warn", message, fields }),
    error: (message, fields) => lines.push({ level: "error", message, fields }),
  };
  return { logger, lines };
}

function provisioner(logger?: Logger) {
  return new Server("Provisioner", {
    version: "1.2.3",
    instructions: "Provision databases.",
    ...(logger ? { logger } : {}),
    onListTools: () => ({ tools: [{ name: "provision", inputSchema: { type: "object" } }] }),
    onCallTool: (_ctx, params) => {
      const answer = params.inputResponses?.region as ElicitResult | undefined;
      if (answer?.action === "accept") {
        return { content: [{ type: "text", text: `in ${String(answer.content?.region)}` }] };
      }
      return inputRequired({ inputRequests: { region: ASK }, requestState: "provision-v1" });
    },
  });
}

async function call(
  server: Server,
  message: ReturnType<typeof rpc>,
  notify?: (n: JSONRPCNotification) => void,
) {
  const response = (await server.handle(message, {
    signal: new AbortController().signal,
    ...(notify ? { notify } : {}),
  })) as JSONRPCResponse;
  return response;
}

function errorOf(response: JSONRPCResponse) {
  if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

function resultOf(response: JSONRPCResponse) {
  if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

describe("server/discover", () => {
  it("advertises exactly the capabilities its handlers serve", async () => {
    const result = resultOf(await call(provisioner(), rpc("server/discover")));
    expect(result.supportedVersions).toEqual(["2026-07-28"]);
    expect(result.capabilities).toEqual({ logging: {}, tools: { listChanged: true } });
    expect(result.instructions).toBe("Provision databases.");
    expect(result.resultType).toBe("complete");
    expect(result.ttlMs).toBe(0);
    expect(result.cacheScope).toBe("private");
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]).toEqual({
      name: "Provisioner",
      version: "1.2.3",
    });
  });

  it("serves a request whose _meta omits clientInfo", async () => {
    const meta = requestMeta();
    delete (meta as Record<string, unknown>)["io.modelcontextprotocol/clientInfo"];
    const response = await call(provisioner(), rpc("server/discover", { _meta: meta }));
    expect(resultOf(response).supportedVersions).toEqual(["2026-07-28"]);
  });
});

describe("per-request _meta", () => {
  it("rejects a request without _meta with -32602 naming it", async () => {
    const error = errorOf(
      await call(provisioner(), { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("_meta");
  });

  it("rejects a request without params at all with -32602", async () => {
    const error = errorOf(await call(provisioner(), { jsonrpc: "2.0", id: 7, method: "tools/list" }));
    expect(error.code).toBe(-32602);
  });

  it.each([["io.modelcontextprotocol/protocolVersion"], ["io.modelcontextprotocol/clientCapabilities"]])(
    "rejects a _meta missing %s with -32602 naming the field",
    async (field) => {
      const meta: Record<string, unknown> = requestMeta();
      delete meta[field];
      const error = errorOf(await call(provisioner(), rpc("tools/list", { _meta: meta })));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(field);
    },
  );

  it("answers an unserved version with -32022 naming the supported and requested versions", async () => {
    const meta = requestMeta({}, { "io.modelcontextprotocol/protocolVersion": "v999.0.0" });
    const error = errorOf(await call(provisioner(), rpc("server/discover", { _meta: meta })));
    expect(error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: ["2026-07-28"], requested: "v999.0.0" },
    });
  });

  it("says a non-string protocolVersion is not a string, not that it is missing", async () => {
    const meta = requestMeta({}, { "io.modelcontextprotocol/protocolVersion": 20260728 });
    const error = errorOf(await call(provisioner(), rpc("tools/list", { _meta: meta })));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'Invalid params: _meta has a non-string "io.modelcontextprotocol/protocolVersion"',
    );
  });

  it("cuts a client-sent key quoted in an invalid-params message instead of echoing it whole", async () => {
    const inputResponses = { ["k".repeat(100_000)]: 42 };
    const error = errorOf(
      await call(provisioner(), rpc("tools/call", { name: "provision", inputResponses })),
    );
    expect(error.code).toBe(-32602);
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toMatch(/^Invalid params: inputResponses\.k+…: /);
  });

  it("cuts a long unserved version in the -32022 answer instead of echoing it whole", async () => {
    const meta = requestMeta({}, { "io.modelcontextprotocol/protocolVersion": "9".repeat(100_000) });
    const error = errorOf(await call(provisioner(), rpc("server/discover", { _meta: meta })));
    expect(error.code).toBe(-32022);
    expect((error.data as { requested: string }).requested).toBe(`${"9".repeat(64)}…`);
  });

  it("rejects an unknown log level with -32602", async () => {
    const meta = requestMeta({}, { "io.modelcontextprotocol/logLevel": "loud" });
    expect(errorOf(await call(provisioner(), rpc("tools/list", { _meta: meta }))).code).toBe(-32602);
  });
});

describe("methods", () => {
  it.each(["ping", "initialize", "logging/setLevel", "resources/subscribe", "unknown/method"])(
    "answers %s with -32601",
    async (method) => {
      const error = errorOf(await call(provisioner(), rpc(method)));
      expect(error.code).toBe(-32601);
    },
  );

  it("answers a 2025-era initialize with -32022 naming the versions it serves", async () => {
    const error = errorOf(
      await call(provisioner(), {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        },
      }),
    );
    expect(error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: ["2026-07-28"], requested: "2025-11-25" },
    });
  });

  it("names the versions it serves when it refuses an initialize without a legacy version", async () => {
    const error = errorOf(await call(provisioner(), rpc("initialize")));
    expect(error).toEqual({
      code: -32601,
      message: "Method not found: initialize",
      data: { supported: ["2026-07-28"] },
    });
  });

  it("answers a method whose handler is not registered with -32601", async () => {
    expect(errorOf(await call(provisioner(), rpc("prompts/list"))).code).toBe(-32601);
  });

  it("echoes ids that are strings or the number 0", async () => {
    expect((await call(provisioner(), rpc("tools/list", {}, 0))).id).toBe(0);
    expect((await call(provisioner(), rpc("tools/list", {}, "abc"))).id).toBe("abc");
  });

  it("validates params before the handler runs", async () => {
    const error = errorOf(await call(provisioner(), rpc("tools/call", { arguments: {} })));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("name");
  });

  it("treats an explicit null requestState or inputResponses as absent", async () => {
    const result = resultOf(
      await call(
        provisioner(),
        rpc("tools/call", { name: "provision", requestState: null, inputResponses: null }),
      ),
    );
    expect(result.resultType).toBe("input_required");
  });

  it("does not mutate the params it was given", async () => {
    const message = rpc("tools/call", { name: "provision", arguments: { name: "orders" } });
    const before = structuredClone(message);
    await call(provisioner(), message);
    expect(message).toEqual(before);
  });
});

describe("InputRequiredResult", () => {
  it("is returned by tools/call with resultType input_required and no cache hints", async () => {
    const result = resultOf(await call(provisioner(), rpc("tools/call", { name: "provision" })));
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests).toEqual({ region: ASK });
    expect(result.requestState).toBe("provision-v1");
    expect(result).not.toHaveProperty("ttlMs");
    expect(result).not.toHaveProperty("cacheScope");
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]).toBeDefined();
  });

  it("completes on the retry that carries the answer", async () => {
    const result = resultOf(
      await call(
        provisioner(),
        rpc("tools/call", {
          name: "provision",
          inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
          requestState: "provision-v1",
        }),
      ),
    );
    expect(result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "in eu-west-1" }],
    });
  });

  it("never carries cache hints even when the handler sets them", async () => {
    const server = new Server("s", {
      cache: { ttlMs: 5000, cacheScope: "public" },
      onReadResource: () => ({ ...inputRequired({ requestState: "x" }), ttlMs: 10, cacheScope: "public" }),
    });
    const result = resultOf(await call(server, rpc("resources/read", { uri: "a://b" })));
    expect(result).not.toHaveProperty("ttlMs");
    expect(result).not.toHaveProperty("cacheScope");
  });

  it("is refused from a method that may not carry one, with -32603 and a logged reason", async () => {
    const { logger, lines } = capturingLogger();
    const server = new Server("s", {
      logger,
      onListTools: () => inputRequired({ requestState: "x" }) as never,
    });
    const error = errorOf(await call(server, rpc("tools/list")));
    expect(error).toEqual({ code: -32603, message: "Internal error" });
    expect(lines.some((line) => String(line.fields?.reason).includes("tools/list may not answer"))).toBe(
      true,
    );
  });

  it("is refused when it carries neither inputRequests nor requestState", async () => {
    const server = new Server("s", {
      logger: capturingLogger().logger,
      onCallTool: () => ({ resultType: "input_required", inputRequests: {} }) as never,
    });
    expect(errorOf(await call(server, rpc("tools/call", { name: "x" }))).code).toBe(-32603);
  });

  it("cannot carry a __proto__ key, which JSON maps drop on the way", () => {
    const inputRequests = JSON.parse(`{"__proto__":${JSON.stringify(ASK)}}`);
    expect(() => inputRequired({ inputRequests })).toThrow(/"__proto__" cannot be an inputRequests key/);
  });

  it("cannot be built with neither field", () => {
    expect(() => inputRequired({})).toThrow(TypeError);
    expect(() => inputRequired({ inputRequests: {} })).toThrow(TypeError);
    expect(inputRequired({ inputRequests: {}, requestState: "s" })).toEqual({
      resultType: "input_required",
      requestState: "s",
    });
  });
});

describe("cache hints", () => {
  it("come from the server's configuration, per method, unless the result sets its own", async () => {
    const server = new Server("s", {
      cache: { ttlMs: 1000, cacheScope: "public", methods: { "resources/read": { ttlMs: 5 } } },
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [], ttlMs: 77, cacheScope: "private" }),
      onReadResource: (_ctx, params) => ({ contents: [{ uri: params.uri, text: "hi" }] }),
    });
    expect(resultOf(await call(server, rpc("tools/list")))).toMatchObject({
      ttlMs: 1000,
      cacheScope: "public",
    });
    expect(resultOf(await call(server, rpc("prompts/list")))).toMatchObject({
      ttlMs: 77,
      cacheScope: "private",
    });
    expect(resultOf(await call(server, rpc("resources/read", { uri: "a://b" })))).toMatchObject({
      ttlMs: 5,
      cacheScope: "public",
    });
  });

  it("are not added to results that are not cacheable", async () => {
    const result = resultOf(
      await call(
        provisioner(),
        rpc("tools/call", {
          name: "provision",
          inputResponses: { region: { action: "accept", content: { region: "x" } } },
        }),
      ),
    );
    expect(result).not.toHaveProperty("ttlMs");
  });

  it("are validated when the server is built", () => {
    expect(() => new Server("s", { cache: { ttlMs: -1 } })).toThrow(RangeError);
    expect(() => new Server("s", { cache: { ttlMs: 1.5 } })).toThrow(RangeError);
    expect(
      () => new Server("s", { cache: { methods: { "tools/list": { cacheScope: "everyone" as never } } } }),
    ).toThrow(RangeError);
  });
});

describe("errors from handlers", () => {
  it("send a thrown McpError as is", async () => {
    const server = new Server("s", {
      onCallTool: () => {
        throw new McpError(-32602, "Unknown tool: nope", { name: "nope" });
      },
    });
    expect(errorOf(await call(server, rpc("tools/call", { name: "nope" })))).toEqual({
      code: -32602,
      message: "Unknown tool: nope",
      data: { name: "nope" },
    });
  });

  it("turn any other throw into -32603 without leaking it, and log it", async () => {
    const { logger, lines } = capturingLogger();
    const server = new Server("s", {
      logger,
      onCallTool: () => {
        throw new Error("database password is hunter2");
      },
    });
    const error = errorOf(await call(server, rpc("tools/call", { name: "x" })));
    expect(error).toEqual({ code: -32603, message: "Internal error" });
    expect(String((lines[0]?.fields?.error as Error | undefined)?.message)).toContain("hunter2");
  });
});

describe("request-scoped notifications", () => {
  function chatty() {
    return new Server("s", {
      onCallTool: (ctx) => {
        ctx.sendProgress({ progress: 1, total: 2 });
        ctx.log("debug", "details");
        ctx.log("error", "bad news", "db");
        ctx.sendProgress({ progress: 2, total: 2 });
        return { content: [] };
      },
    });
  }

  it("send progress only for a request with a progressToken", async () => {
    const sent: JSONRPCNotification[] = [];
    await call(chatty(), rpc("tools/call", { name: "x" }), (n) => sent.push(n));
    expect(sent).toEqual([]);
    await call(
      chatty(),
      rpc("tools/call", { name: "x", _meta: requestMeta({}, { progressToken: "t1" }) }),
      (n) => sent.push(n),
    );
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "t1", progress: 1, total: 2 },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "t1", progress: 2, total: 2 },
      },
    ]);
  });

  it("send log messages only at or above the request's log level", async () => {
    const sent: JSONRPCNotification[] = [];
    await call(
      chatty(),
      rpc("tools/call", {
        name: "x",
        _meta: requestMeta({}, { "io.modelcontextprotocol/logLevel": "warning" }),
      }),
      (n) => sent.push(n),
    );
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "error", logger: "db", data: "bad news" },
      },
    ]);
  });

  it("refuse progress that does not grow", async () => {
    const server = new Server("s", {
      logger: capturingLogger().logger,
      onCallTool: (ctx) => {
        ctx.sendProgress({ progress: 2 });
        ctx.sendProgress({ progress: 2 });
        return { content: [] };
      },
    });
    const response = await call(
      server,
      rpc("tools/call", { name: "x", _meta: requestMeta({}, { progressToken: 1 }) }),
      () => {},
    );
    expect(errorOf(response).code).toBe(-32603);
  });
});

describe("subscriptions/listen", () => {
  function lists() {
    return new Server("s", {
      onListTools: () => ({ tools: [] }),
      onListPrompts: () => ({ prompts: [] }),
    });
  }

  it("acknowledges first, tags every notification, sends only requested types, and ends on abort", async () => {
    const server = lists();
    const sent: JSONRPCNotification[] = [];
    const controller = new AbortController();
    const done = server.handle(
      rpc(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true, resourcesListChanged: true } },
        42,
      ),
      {
        signal: controller.signal,
        notify: (n) => sent.push(n),
      },
    );
    await Promise.resolve();
    server.notifyListChanged("prompts");
    server.notifyListChanged("tools");
    controller.abort();
    await done;
    server.notifyListChanged("tools");
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true },
          _meta: { "io.modelcontextprotocol/subscriptionId": 42 },
        },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": 42 } },
      },
    ]);
  });

  it("ends with a result tagged with the subscription id when the server closes", async () => {
    const server = lists();
    const acknowledged = new Promise<void>((resolve) => {
      void server
        .handle(rpc("subscriptions/listen", { notifications: { promptsListChanged: true } }, "sub-1"), {
          signal: new AbortController().signal,
          notify: () => resolve(),
        })
        .then((response) => {
          expect(resultOf(response as JSONRPCResponse)).toMatchObject({
            resultType: "complete",
            _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" },
          });
        });
    });
    await acknowledged;
    server.close();
  });

  it("is not served by a server with nothing to report", async () => {
    const server = new Server("s", { onComplete: () => ({ completion: { values: [] } }) });
    expect(
      errorOf(await call(server, rpc("subscriptions/listen", { notifications: {} }), () => {})).code,
    ).toBe(-32601);
  });
});

describe("middleware", () => {
  it("runs in the order added, may rewrite params, and sees the shaped result", async () => {
    const order: string[] = [];
    const server = new Server("s", {
      onCallTool: (_ctx, params) => ({ content: [{ type: "text", text: String(params.requestState) }] }),
    });
    server.use(async (request, next) => {
      order.push("outer");
      return next(request);
    });
    server.use(async (request, next) => {
      order.push("inner");
      const result = await next({ ...request, params: { ...request.params, requestState: "plaintext" } });
      order.push(`saw ${String(result.resultType)}`);
      return result;
    });
    const result = resultOf(await call(server, rpc("tools/call", { name: "x", requestState: "sealed" })));
    expect(order).toEqual(["outer", "inner", "saw complete"]);
    expect(result.content).toEqual([{ type: "text", text: "plaintext" }]);
  });

  it("answers with the McpError a middleware throws", async () => {
    const server = provisioner().use(async () => {
      throw new McpError(-32602, "Invalid or expired requestState");
    });
    expect(errorOf(await call(server, rpc("tools/call", { name: "provision" }))).message).toBe(
      "Invalid or expired requestState",
    );
  });
});

describe("construction", () => {
  it("refuses a handler that is not a function and a name that is not a string", () => {
    expect(() => new Server("s", { onCallTool: "nope" as never })).toThrow(TypeError);
    expect(() => new Server(42 as never)).toThrow(TypeError);
  });
});
