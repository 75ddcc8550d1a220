/**
 * The `Context` an `MCPServer` handler receives, end to end over Streamable HTTP (auth info, which
 * only an auth layer sets, through the dispatcher directly).
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import type { JSONRPCNotification, JSONRPCResultResponse } from "../../protocol/jsonrpc.js";
import type {
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
} from "../../protocol/schema/methods.js";
import type { Context } from "./context.js";
import { overHttp, rawMeta } from "./mcp-test-fixtures.js";
import { MCPServer } from "./server.js";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("the handler's Context", () => {
  it("tells who is asking: protocol version, client info and capabilities, and round one's empty input", async () => {
    let seen: Context | undefined;
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("whoami", {}, (_args, ctx) => {
      seen = ctx;
      return "";
    });
    const { client } = await overHttp(mcp, {
      clientInfo: { name: "inspector", version: "9.9.9" },
      elicitationCallback: async () => ({ action: "cancel" }),
    });
    await client.callTool("whoami");
    expect(seen?.protocolVersion).toBe("2026-07-28");
    expect(seen?.clientInfo).toEqual({ name: "inspector", version: "9.9.9" });
    expect(seen?.clientCapabilities).toEqual({ elicitation: { form: {}, url: {} } });
    expect(seen?.method).toBe("tools/call");
    expect(seen?.inputResponses).toBeUndefined();
    expect(seen?.requestState).toBeUndefined();
    expect(seen?.auth).toBeUndefined();
    expect(seen?.signal.aborted).toBe(false);
  });

  it("carries the auth info an auth layer established", async () => {
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.clientId}/${ctx.auth?.subject}`);
    const response = await mcp.handle(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "whoami", _meta: rawMeta() } },
      { signal: new AbortController().signal, auth: { token: "t", clientId: "app", subject: "alice" } },
    );
    expect((response as JSONRPCResultResponse).result.content).toEqual([{ type: "text", text: "app/alice" }]);
  });

  it("reports progress to a client that asked for it, and nowhere otherwise", async () => {
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("migrate", { inputSchema: z.object({ steps: z.number() }) }, ({ steps }, ctx) => {
      for (let step = 1; step <= steps; step++)
        ctx.sendProgress({ progress: step, total: steps, message: `step ${step}` });
      return "migrated";
    });
    const { client } = await overHttp(mcp);
    const progress: ProgressNotificationParams[] = [];
    await client.callTool("migrate", { steps: 3 }, { onProgress: (update) => progress.push(update) });
    expect(progress.map(({ progress, total, message }) => ({ progress, total, message }))).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    expect((await client.callTool("migrate", { steps: 2 })).content).toEqual([
      { type: "text", text: "migrated" },
    ]);
  });

  it("logs to the client at or above the level the request opted into, and not at all without one", async () => {
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("chatty", {}, (_args, ctx) => {
      ctx.log("debug", "noise");
      ctx.log("warning", { disk: "90%" }, "storage");
      ctx.log("error", "failed over");
      return "done";
    });
    const { client } = await overHttp(mcp);
    const messages: LoggingMessageNotificationParams[] = [];
    await client.callTool("chatty", {}, { logLevel: "warning", onLog: (message) => messages.push(message) });
    expect(messages.map(({ level, logger, data }) => ({ level, logger, data }))).toEqual([
      { level: "warning", logger: "storage", data: { disk: "90%" } },
      { level: "error", logger: undefined, data: "failed over" },
    ]);
    const silent: LoggingMessageNotificationParams[] = [];
    await client.callTool("chatty", {}, { onLog: (message) => silent.push(message) });
    expect(silent).toEqual([]);
  });

  it("aborts its signal when the client abandons the request", async () => {
    const started = deferred();
    const aborted = deferred<boolean>();
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("slow", {}, async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => aborted.resolve(true));
      started.resolve();
      await aborted.promise;
      return "late";
    });
    const { client } = await overHttp(mcp);
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    await started.promise;
    controller.abort(new Error("user gave up"));
    await expect(call).rejects.toThrow("user gave up");
    expect(await aborted.promise).toBe(true);
  });

  it("is built for prompts, resources and completers too", async () => {
    const methods: string[] = [];
    const note = <T>(ctx: Context, value: T): T => {
      methods.push(`${ctx.method}:${ctx.clientInfo?.name}`);
      return value;
    };
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt(
      "p",
      { argsSchema: z.object({ a: z.string() }), complete: { a: (_v, _c, ctx) => note(ctx, ["x"]) } },
      (_args, ctx) => note(ctx, "hi"),
    );
    mcp.resource("r://{id}", { list: (ctx) => note(ctx, []) }, (_vars, ctx) => note(ctx, "r"));
    const { client } = await overHttp(mcp, { clientInfo: { name: "c", version: "1" } });
    await client.getPrompt("p", { a: "1" });
    await client.readResource("r://1");
    await client.listResources();
    await client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } });
    expect(methods).toEqual([
      "prompts/get:c",
      "resources/read:c",
      "resources/list:c",
      "completion/complete:c",
    ]);
  });
});

describe("notifications a Context sends", () => {
  it("never reach a client through anything but the request's own stream", async () => {
    const mcp = new MCPServer("ctx", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("progress", {}, (_args, ctx) => {
      ctx.sendProgress({ progress: 1 });
      return "";
    });
    const received: JSONRPCNotification[] = [];
    const response = await mcp.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "progress", _meta: { ...rawMeta(), progressToken: "tok" } },
      },
      { signal: new AbortController().signal, notify: (notification) => received.push(notification) },
    );
    expect(response).toHaveProperty("result");
    expect(received).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1 } },
    ]);
  });
});
