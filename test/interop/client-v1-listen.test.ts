/**
 * The tsmcp `Client` listening to a 2025-11-25 server built on the official 1.x SDK: `listen` sends
 * `resources/subscribe` and the session's own notifications (the standalone GET stream over HTTP,
 * stdout over stdio) reach the listener, as a `subscriptions/listen` stream's do at 2026-07-28.
 */
import { spawn } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  Client,
  type ClientOptions,
  ServerCapabilityMissingError,
} from "../../packages/tsmcp/src/client/index.js";
import type { JSONRPCNotification } from "../../packages/tsmcp/src/protocol/index.js";
import { serveV1SubscriptionsHttp } from "./official-v1-subscriptions-server.js";
import { ROOT } from "./peers.js";

const SUBSCRIPTIONS_STDIO = {
  command: process.execPath,
  args: ["--import", "tsx", "test/interop/official-v1-subscriptions-server.ts"],
  cwd: ROOT,
};

/** Notifications as they arrive, awaited one at a time (no sleeps). */
function inbox() {
  const queue: JSONRPCNotification[] = [];
  const waiting: ((n: JSONRPCNotification) => void)[] = [];
  return {
    push(notification: JSONRPCNotification) {
      const waiter = waiting.shift();
      if (waiter) waiter(notification);
      else queue.push(notification);
    },
    next(): Promise<JSONRPCNotification> {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function summary(notification: JSONRPCNotification): string {
  const uri = notification.params?.uri;
  return typeof uri === "string" ? `${notification.method} ${uri}` : notification.method;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text: string }[]).map((part) => part.text).join("");
}

async function connect(
  target: URL | typeof SUBSCRIPTIONS_STDIO,
  options: ClientOptions = {},
): Promise<Client> {
  const client = await Client.connect(target, { timeoutMs: 10_000, ...options });
  onTestFinished(() => client.close());
  return client;
}

/** Cases both transports run against the 1.x subscriptions server. */
function listenCases(connectToServer: () => Promise<Client>): void {
  it("subscribes with resources/subscribe and hands the server's update to the listener", async () => {
    const client = await connectToServer();
    expect(client.protocolVersion).toBe("2025-11-25");
    const received = inbox();
    const subscription = client.listen(
      { resourceSubscriptions: ["notes://1"], toolsListChanged: true, promptsListChanged: true },
      (notification) => received.push(notification),
    );
    onTestFinished(() => subscription.close());
    expect(await subscription.acknowledged).toEqual({
      resourceSubscriptions: ["notes://1"],
      toolsListChanged: true,
    });
    expect(textOf(await client.callTool("subscribed"))).toBe("notes://1");
    expect(textOf(await client.callTool("touch", { uri: "notes://1" }))).toBe("sent");
    expect(summary(await received.next())).toBe("notifications/resources/updated notes://1");
    // The same update on the tool call's own stream reaches the listener too.
    await client.callTool("touch", { uri: "notes://1", inline: true });
    expect(summary(await received.next())).toBe("notifications/resources/updated notes://1");
    await client.callTool("add_tool", { name: "late" });
    expect(summary(await received.next())).toBe("notifications/tools/list_changed");
  });

  it("unsubscribes with resources/unsubscribe when the listener closes", async () => {
    const client = await connectToServer();
    const subscription = client.listen({ resourceSubscriptions: ["notes://1", "notes://2"] }, () => {});
    await subscription.acknowledged;
    expect(textOf(await client.callTool("subscribed"))).toBe("notes://1,notes://2");
    subscription.close();
    await subscription.closed;
    expect(textOf(await client.callTool("subscribed"))).toBe("");
  });
}

describe("Client.listen against the official 1.x server over stateful HTTP", () => {
  listenCases(async () => {
    const server = await serveV1SubscriptionsHttp();
    onTestFinished(() => server.close());
    return connect(server.url);
  });
});

describe("Client.listen against the official 1.x server over stateful HTTP with a slow GET stream", () => {
  it("acknowledges only once the GET stream is open, so an update sent right after is not lost", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serveV1SubscriptionsHttp({ holdGetStream: held });
    onTestFinished(() => server.close());
    let subscribeAnswered!: () => void;
    const answered = new Promise<void>((resolve) => {
      subscribeAnswered = resolve;
    });
    let subscribeId: unknown;
    const client = await connect(server.url, {
      onMessage: (message, direction) => {
        if (direction === "sent" && "id" in message && "method" in message) {
          if (message.method === "resources/subscribe") subscribeId = message.id;
        } else if (direction === "received" && "id" in message && message.id === subscribeId) {
          subscribeAnswered();
        }
      },
    });
    const received = inbox();
    const subscription = client.listen({ resourceSubscriptions: ["notes://1"] }, (n) => received.push(n));
    onTestFinished(() => subscription.close());
    let acknowledged = false;
    void subscription.acknowledged.then(() => {
      acknowledged = true;
    });
    await answered;
    // One turn of the event loop: every continuation of the answer has run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged).toBe(false);

    release();
    await subscription.acknowledged;
    // The 1.x server drops a notification when no GET stream is open: this one must arrive.
    expect(textOf(await client.callTool("touch", { uri: "notes://1" }))).toBe("sent");
    expect(summary(await received.next())).toBe("notifications/resources/updated notes://1");
  });
});

describe("Client.listen against the official 1.x server over stdio", () => {
  listenCases(() => connect(SUBSCRIPTIONS_STDIO));

  it("refuses resource subscriptions with ServerCapabilityMissingError when the server declares no subscribe", async () => {
    const client = await connect({
      command: process.execPath,
      args: ["--import", "tsx", "test/interop/official-v1-server.ts"],
      cwd: ROOT,
    });
    expect(client.serverCapabilities?.resources?.subscribe).toBeUndefined();
    expect(() => client.listen({ resourceSubscriptions: ["notes://1"] }, () => {})).toThrow(
      ServerCapabilityMissingError,
    );
  });
});

/** Runs `test/interop/listen-script.ts` as a child process; resolves with its exit and output. */
function runListenScript(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/interop/listen-script.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("Client.listen in a process of its own, against the official 1.x server over stdio", () => {
  it("receives the update and the list change, and the process exits 0 with no unhandled rejection", async () => {
    const { code, stdout, stderr } = await runListenScript();
    expect(stderr).not.toMatch(/unhandled|MethodNotInEraError/i);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      era: "legacy",
      acknowledged: { resourceSubscriptions: ["notes://1"], toolsListChanged: true },
      seen: ["notifications/resources/updated notes://1", "notifications/tools/list_changed"],
    });
  });
});
