/**
 * The `MCPServer` facade: options checked at construction, what `server/discover` advertises,
 * list-changed notifications on `subscriptions/listen`, and serving over HTTP (`serve` from tsmcp/node, the
 * web-standard handler in a plain `node:http` server), stdio (a real child process) and memory.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { Client } from "../../client/client.js";
import type { ListenNotification } from "../../client/session-options.js";
import { serve } from "../../transport/http/node/node.js";
import { overHttp, postRaw } from "./mcp-test-fixtures.js";
import { DEFAULT_PAGE_SIZE } from "./pagination.js";
import { MCPServer } from "./server.js";

const REPO_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const STDIO_FIXTURE = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));

/** Notifications as they arrive, awaited one at a time (no sleeps). */
function inbox() {
  const queue: ListenNotification[] = [];
  const waiting: ((n: ListenNotification) => void)[] = [];
  return {
    push(notification: ListenNotification) {
      const waiter = waiting.shift();
      if (waiter) waiter(notification);
      else queue.push(notification);
    },
    next(): Promise<ListenNotification> {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

describe("constructing an MCPServer", () => {
  it("checks its options at once", () => {
    expect(() => new MCPServer(3 as never)).toThrow(new TypeError("MCPServer: name must be a string"));
    expect(() => new MCPServer("s", "x" as never)).toThrow(/options must be an object/);
    expect(() => new MCPServer("s", { pageSize: 0 })).toThrow(RangeError);
    expect(() => new MCPServer("s", { pageSize: 1.5 })).toThrow(RangeError);
    expect(() => new MCPServer("s", { pageSize: "10" as never })).toThrow(TypeError);
    expect(() => new MCPServer("s", { requestStateSecurity: {} as never })).toThrow(
      /"requestStateSecurity" must be a RequestStateSecurity/,
    );
    expect(() => new MCPServer("s", { cache: { ttlMs: -5 } })).toThrow(RangeError);
  });

  it("pins its default page size", () => {
    expect(DEFAULT_PAGE_SIZE).toBe(100);
    expect(new MCPServer("s").pageSize).toBe(100);
  });
});

describe("the server-level cache option", () => {
  /** The cache hints on the result of one raw request. */
  async function hintsOf(url: URL, method: string, params: Record<string, unknown> = {}) {
    const response = await postRaw(url, method, params);
    if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
    const { ttlMs, cacheScope } = response.result as { ttlMs?: unknown; cacheScope?: unknown };
    return { ttlMs, cacheScope };
  }

  function catalog(mcp: MCPServer): MCPServer {
    mcp.tool("t", {}, () => "ok");
    mcp.prompt("p", {}, () => "hello");
    mcp.resource("config://plain", {}, () => "{}");
    mcp.resource("config://own", { cache: { ttlMs: 60_000 } }, () => "{}");
    mcp.resource("notes://{id}", { list: () => [{ uri: "notes://1", name: "one" }] }, ({ id }) => id);
    return mcp;
  }

  it("sets ttlMs and cacheScope on list results, discovery and reads, per method over the defaults", async () => {
    const mcp = catalog(
      new MCPServer("cached", {
        cache: {
          ttlMs: 30_000,
          cacheScope: "public",
          methods: { "resources/read": { ttlMs: 5_000 }, "prompts/list": { cacheScope: "private" } },
        },
        requestStateSecurity: testRequestStateSecurity(),
      }),
    );
    const { url } = await overHttp(mcp);
    const server = { ttlMs: 30_000, cacheScope: "public" };
    expect(await hintsOf(url, "server/discover")).toEqual(server);
    expect(await hintsOf(url, "tools/list")).toEqual(server);
    expect(await hintsOf(url, "resources/list")).toEqual(server);
    expect(await hintsOf(url, "resources/templates/list")).toEqual(server);
    expect(await hintsOf(url, "prompts/list")).toEqual({ ttlMs: 30_000, cacheScope: "private" });
    expect(await hintsOf(url, "resources/read", { uri: "config://plain" })).toEqual({
      ttlMs: 5_000,
      cacheScope: "public",
    });
    expect(await hintsOf(url, "resources/read", { uri: "notes://1" })).toEqual({
      ttlMs: 5_000,
      cacheScope: "public",
    });
    // A resource's own hint wins; what it leaves unset comes from the server.
    expect(await hintsOf(url, "resources/read", { uri: "config://own" })).toEqual({
      ttlMs: 60_000,
      cacheScope: "public",
    });
    // Results that are not cacheable carry no hints.
    expect(await hintsOf(url, "tools/call", { name: "t" })).toEqual({
      ttlMs: undefined,
      cacheScope: undefined,
    });
    expect(await hintsOf(url, "prompts/get", { name: "p" })).toEqual({
      ttlMs: undefined,
      cacheScope: undefined,
    });
  });

  it("defaults to { ttlMs: 0, cacheScope: private } without it", async () => {
    const { url } = await overHttp(
      catalog(new MCPServer("uncached", { requestStateSecurity: testRequestStateSecurity() })),
    );
    const none = { ttlMs: 0, cacheScope: "private" };
    for (const method of [
      "server/discover",
      "tools/list",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
    ]) {
      expect(await hintsOf(url, method), method).toEqual(none);
    }
    expect(await hintsOf(url, "resources/read", { uri: "config://plain" })).toEqual(none);
    expect(await hintsOf(url, "resources/read", { uri: "config://own" })).toEqual({
      ttlMs: 60_000,
      cacheScope: "private",
    });
  });

  it("reaches the client's results", async () => {
    const mcp = catalog(
      new MCPServer("cached", {
        cache: { ttlMs: 45_000, cacheScope: "public" },
        requestStateSecurity: testRequestStateSecurity(),
      }),
    );
    const { client } = await overHttp(mcp);
    expect(await client.listTools()).toMatchObject({ ttlMs: 45_000, cacheScope: "public" });
    expect(await client.readResource("config://plain")).toMatchObject({
      ttlMs: 45_000,
      cacheScope: "public",
    });
  });
});

describe("server/discover", () => {
  it("advertises tools, prompts, resources and completions with nothing registered, plus identity and instructions", async () => {
    const mcp = new MCPServer("fleet", {
      version: "1.2.3",
      info: { title: "Fleet" },
      instructions: "Ask before provisioning.",
      requestStateSecurity: testRequestStateSecurity(),
    });
    const { client } = await overHttp(mcp);
    expect(client.serverCapabilities).toEqual({
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      tools: { listChanged: true },
    });
    expect(client.serverInfo).toEqual({ name: "fleet", version: "1.2.3", title: "Fleet" });
    expect(client.instructions).toBe("Ask before provisioning.");
  });
});

describe("subscriptions/listen", () => {
  it("tells listeners when tools, prompts and resources are added or removed at run time", async () => {
    const mcp = new MCPServer("live", { requestStateSecurity: testRequestStateSecurity() });
    const { client } = await overHttp(mcp);
    const received = inbox();
    const subscription = client.listen(
      {
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ["notes://1"],
      },
      (notification) => received.push(notification),
    );
    onTestFinished(() => subscription.close());
    expect(await subscription.acknowledged).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ["notes://1"],
    });

    const tool = mcp.tool("late", {}, () => "");
    expect((await received.next()).method).toBe("notifications/tools/list_changed");
    tool.remove();
    expect((await received.next()).method).toBe("notifications/tools/list_changed");
    const prompt = mcp.prompt("late", {}, () => "");
    expect((await received.next()).method).toBe("notifications/prompts/list_changed");
    prompt.remove();
    expect((await received.next()).method).toBe("notifications/prompts/list_changed");
    const template = mcp.resource("notes://{id}", {}, () => "");
    expect((await received.next()).method).toBe("notifications/resources/list_changed");
    template.remove();
    expect((await received.next()).method).toBe("notifications/resources/list_changed");
    mcp.notifyResourceUpdated("notes://1");
    const updated = await received.next();
    expect(updated.method).toBe("notifications/resources/updated");
    expect(updated.params).toMatchObject({
      uri: "notes://1",
      _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
    });
  });

  it("tells listeners when a static resource is added or removed at run time", async () => {
    const mcp = new MCPServer("live", { requestStateSecurity: testRequestStateSecurity() });
    mcp.resource("notes://welcome", {}, () => "# Welcome");
    const { client } = await overHttp(mcp);
    const received = inbox();
    const subscription = client.listen({ resourcesListChanged: true }, (notification) =>
      received.push(notification),
    );
    onTestFinished(() => subscription.close());
    expect(await subscription.acknowledged).toEqual({ resourcesListChanged: true });

    const late = mcp.resource("notes://late", { mimeType: "text/plain" }, () => "late");
    expect((await received.next()).method).toBe("notifications/resources/list_changed");
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      "notes://welcome",
      "notes://late",
    ]);
    expect((await client.readResource("notes://late")).contents).toEqual([
      { uri: "notes://late", mimeType: "text/plain", text: "late" },
    ]);
    late.remove();
    expect((await received.next()).method).toBe("notifications/resources/list_changed");
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["notes://welcome"]);
    await expect(client.readResource("notes://late")).rejects.toMatchObject({
      code: -32602,
      data: { uri: "notes://late" },
    });
  });

  it("ends open listen streams when the server closes", async () => {
    const mcp = new MCPServer("live", { requestStateSecurity: testRequestStateSecurity() });
    const { client } = await overHttp(mcp);
    const subscription = client.listen({ toolsListChanged: true }, () => {});
    await subscription.acknowledged;
    mcp.close();
    await expect(subscription.closed).resolves.toBeUndefined();
  });
});

describe("serving an MCPServer", () => {
  it("serves the web-standard handler from any framework's request listener", async () => {
    const mcp = new MCPServer("handler", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
    const handler = mcp.httpHandler();
    const listener = getRequestListener(handler);
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const client = await Client.connect(`http://127.0.0.1:${port}/anything`);
    onTestFinished(() => client.close());
    expect((await client.callTool("echo", { text: "via handler" })).content).toEqual([
      { type: "text", text: "via handler" },
    ]);
  });

  it("serves over Streamable HTTP on a free loopback port", async () => {
    const mcp = new MCPServer("http", { requestStateSecurity: testRequestStateSecurity() });
    const handle = await serve(mcp);
    onTestFinished(() => handle.close());
    expect(handle.url.hostname).toBe("127.0.0.1");
    expect(handle.url.pathname).toBe("/mcp");
    expect(handle.port).toBeGreaterThan(0);
    const client = await Client.connect(handle.url);
    onTestFinished(() => client.close());
    expect(client.serverInfo?.name).toBe("http");
  });

  it("serves in memory: Client.connect takes the server itself", async () => {
    const mcp = new MCPServer("memory", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
    const client = await Client.connect(mcp);
    onTestFinished(() => client.close());
    expect((await client.callTool("echo", { text: "in memory" })).content).toEqual([
      { type: "text", text: "in memory" },
    ]);
  });

  it("serves over stdio from a child process, MRTR included", async () => {
    const client = await Client.connect(
      { command: process.execPath, args: ["--import", "tsx", STDIO_FIXTURE], cwd: REPO_ROOT },
      { elicitationCallback: async () => ({ action: "accept", content: { name: "Ada" } }) },
    );
    onTestFinished(() => client.close());
    expect(client.serverInfo).toEqual({ name: "stdio-mcp", version: "2.0.0" });
    expect((await client.callTool("echo", { text: "over stdio" })).content).toEqual([
      { type: "text", text: "over stdio" },
    ]);
    expect((await client.getPrompt("greeting")).messages).toEqual([
      { role: "user", content: { type: "text", text: "Greet Ada." } },
    ]);
    const first = await client.session.getPrompt("greeting", undefined, { allowInputRequired: true });
    expect((first as { requestState: string }).requestState).toMatch(/^v1\./);
    expect((await client.readResource("notes://7")).contents).toEqual([
      { uri: "notes://7", mimeType: "text/plain", text: "note 7" },
    ]);
  });
});
