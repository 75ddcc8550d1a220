/**
 * `Client.listen` in both eras over real transports, against a tsmcp `MCPServer`: the same
 * listener gets the tools list changes and the watched resource's updates whether the client
 * speaks 2026-07-28 (`subscriptions/listen`) or 2025-11-25 (`resources/subscribe` and the session's
 * notifications: the standalone GET stream over HTTP, stdout over stdio).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../test/helpers/request-state.js";
import type { JSONRPCNotification } from "../protocol/jsonrpc.js";
import { MCPServer } from "../server/mcp/server.js";
import { Server } from "../server/server.js";
import { serve } from "../transport/http/node/node.js";
import { Client, type ClientOptions } from "./client.js";
import { ServerCapabilityMissingError } from "./errors.js";
import type { ListenNotification } from "./session-options.js";

const LISTEN_SERVER = fileURLToPath(new URL("./fixtures/listen-server.ts", import.meta.url));
const STDIO_COMMAND = { command: process.execPath, args: ["--import", "tsx", LISTEN_SERVER] };

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

/** The method and, for a resource update, the URI: what both eras have in common. */
function summary(notification: ListenNotification): string {
  const uri = notification.params?.uri;
  return typeof uri === "string" ? `${notification.method} ${uri}` : notification.method;
}

/** An `MCPServer` whose tools make it notify: `touch {uri}` and `add_tool {name}`. */
function listenServer(): MCPServer {
  const mcp = new MCPServer("listen-fixture", { requestStateSecurity: testRequestStateSecurity() });
  mcp.resource("notes://{id}", {}, ({ id }) => `note ${id}`);
  mcp.tool("touch", { inputSchema: z.object({ uri: z.string() }) }, ({ uri }) => {
    mcp.notifyResourceUpdated(uri);
    return "touched";
  });
  mcp.tool("add_tool", { inputSchema: z.object({ name: z.string() }) }, ({ name }) => {
    mcp.tool(name, {}, () => name);
    return "added";
  });
  return mcp;
}

async function overHttp(dispatcher: MCPServer | Server, options: ClientOptions): Promise<Client> {
  const handle = await serve(dispatcher, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  const client = await Client.connect(handle.url, options);
  onTestFinished(() => client.close());
  return client;
}

async function overStdio(options: ClientOptions): Promise<Client> {
  const client = await Client.connect(STDIO_COMMAND, options);
  onTestFinished(() => client.close());
  return client;
}

const ERAS: [string, ClientOptions][] = [
  ["2026-07-28", {}],
  ["2025-11-25", { protocolVersion: "legacy" }],
];

/** Listens, makes the server change, and checks what reached the listener, in order. */
async function expectNotificationsReachTheListener(client: Client): Promise<void> {
  const received = inbox();
  const subscription = client.listen(
    { toolsListChanged: true, resourceSubscriptions: ["notes://1"] },
    (notification) => received.push(notification),
  );
  onTestFinished(() => subscription.close());
  expect(await subscription.acknowledged).toEqual({
    toolsListChanged: true,
    resourceSubscriptions: ["notes://1"],
  });
  await client.callTool("touch", { uri: "notes://2" });
  await client.callTool("add_tool", { name: "late" });
  await client.callTool("touch", { uri: "notes://1" });
  expect(summary(await received.next())).toBe("notifications/tools/list_changed");
  expect(summary(await received.next())).toBe("notifications/resources/updated notes://1");
  subscription.close();
  await expect(subscription.closed).resolves.toBeUndefined();
}

describe.each(ERAS)("Client.listen at %s", (version, eraOptions) => {
  it("over HTTP delivers tool list changes and the watched resource's updates to the listener", async () => {
    const client = await overHttp(listenServer(), eraOptions);
    expect(client.protocolVersion).toBe(version);
    await expectNotificationsReachTheListener(client);
  });

  it("over stdio with a child process delivers tool list changes and the watched resource's updates", async () => {
    const client = await overStdio(eraOptions);
    expect(client.protocolVersion).toBe(version);
    await expectNotificationsReachTheListener(client);
  });

  it("acknowledges only the notifications the server's capabilities offer", async () => {
    const server = new Server("plain", {
      capabilities: { tools: {}, prompts: { listChanged: true }, resources: { subscribe: true } },
      onListTools: () => ({ tools: [] }),
    });
    const client = await overHttp(server, eraOptions);
    const subscription = client.listen(
      { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["a://1"] },
      () => {},
    );
    onTestFinished(() => subscription.close());
    expect(await subscription.acknowledged).toEqual({
      promptsListChanged: true,
      resourceSubscriptions: ["a://1"],
    });
  });

  it("refuses resource subscriptions with ServerCapabilityMissingError when the server offers none", async () => {
    const server = new Server("unsubscribable", {
      capabilities: { tools: { listChanged: true }, resources: {} },
      onListTools: () => ({ tools: [] }),
    });
    const client = await overHttp(server, eraOptions);
    const listening = () =>
      client.listen({ toolsListChanged: true, resourceSubscriptions: ["a://1"] }, () => {});
    expect(listening).toThrow(ServerCapabilityMissingError);
    expect(listening).toThrow(
      "The server does not declare the resources.subscribe capability, so subscribing to a://1 is not possible",
    );
    const lists = client.listen({ toolsListChanged: true }, () => {});
    onTestFinished(() => lists.close());
    expect(await lists.acknowledged).toEqual({ toolsListChanged: true });
  });

  it("ends the listener when the client closes: closed resolves", async () => {
    const client = await overHttp(listenServer(), eraOptions);
    const subscription = client.listen({ resourceSubscriptions: ["notes://1"] }, () => {});
    await subscription.acknowledged;
    await client.close();
    await expect(subscription.closed).resolves.toBeUndefined();
  });

  it("refuses a filter of the wrong shape with a TypeError, sending nothing", async () => {
    const client = await overHttp(listenServer(), eraOptions);
    expect(() => client.listen({ resourceSubscriptions: "notes://1" } as never, () => {})).toThrow(TypeError);
    expect(() => client.listen({ toolsListChanged: true }, undefined as never)).toThrow(TypeError);
  });
});

describe("Client.listen on a 2025-era session", () => {
  it("unsubscribes a URI only when the last listener watching it closes", async () => {
    const sessionWide: string[] = [];
    const mcp = listenServer();
    const client = await overHttp(mcp, {
      protocolVersion: "legacy",
      onNotification: (notification: JSONRPCNotification) => sessionWide.push(summary(notification)),
    });
    const first = inbox();
    const second = inbox();
    const a = client.listen({ resourceSubscriptions: ["notes://1"] }, (n) => first.push(n));
    const b = client.listen({ resourceSubscriptions: ["notes://1", "notes://2"] }, (n) => second.push(n));
    await Promise.all([a.acknowledged, b.acknowledged]);

    a.close();
    await a.closed;
    await client.callTool("touch", { uri: "notes://1" });
    expect(summary(await second.next())).toBe("notifications/resources/updated notes://1");

    b.close();
    await b.closed;
    await client.callTool("touch", { uri: "notes://1" });
    await client.callTool("touch", { uri: "notes://2" });
    const third = inbox();
    const c = client.listen({ resourceSubscriptions: ["notes://3"] }, (n) => third.push(n));
    onTestFinished(() => c.close());
    await c.acknowledged;
    await client.callTool("touch", { uri: "notes://3" });
    expect(summary(await third.next())).toBe("notifications/resources/updated notes://3");
    // One stream carries the session's notifications in order: had the server still watched
    // notes://1 or notes://2 after the two listeners closed, it would have told of them before.
    expect(sessionWide.filter((line) => line.startsWith("notifications/resources/updated"))).toEqual([
      "notifications/resources/updated notes://1",
      "notifications/resources/updated notes://3",
    ]);
  });

  it("subscribes its resources again on the restarted stdio server", async () => {
    const client = await overStdio({ protocolVersion: "legacy" });
    const received = inbox();
    const subscription = client.listen({ resourceSubscriptions: ["notes://1"] }, (n) => received.push(n));
    onTestFinished(() => subscription.close());
    await subscription.acknowledged;
    await expect(client.callTool("exit")).rejects.toThrow();
    // The new process knows of no session: the client initializes it, subscribes again, then calls.
    await client.callTool("touch", { uri: "notes://1" });
    expect(summary(await received.next())).toBe("notifications/resources/updated notes://1");
  });
});
