/**
 * A scripted 2025-11-25 client (raw JSON-RPC lines) against an `MCPServer` with resolver tools in
 * a real child process over stdio: the handshake, resolver questions answered over the
 * back-channel (one question; two dependent ones), progress, and a back-channel request that is
 * cancelled or times out.
 */
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { RawServer, REPO_ROOT } from "./fixtures/harness.js";
import { acceptingForms, LegacyPeer } from "./fixtures/legacy-peer.js";

const RESOLVER_SERVER = fileURLToPath(new URL("./fixtures/resolver-server.ts", import.meta.url));

type TestContext = { onTestFinished: (fn: () => Promise<void> | void) => void };

/** Starts the resolver fixture and a scripted client that has initialized it. */
async function initialized(context: TestContext, ...flags: string[]) {
  const server = new RawServer({
    command: process.execPath,
    args: ["--import", "tsx", RESOLVER_SERVER, ...flags],
    cwd: REPO_ROOT,
  });
  context.onTestFinished(async () => {
    server.kill();
    await server.exited;
  });
  const peer = new LegacyPeer(server);
  const init = await peer.initialize();
  return { server, peer, init };
}

function textOf(message: Record<string, unknown>): string {
  const result = message.result as { content: { text: string }[] };
  return result.content.map((block) => block.text).join("");
}

describe("a 2025-11-25 client over stdio against resolver tools", () => {
  it("initializes, then gets a resolver's question as elicitation/create and the final result", async (context) => {
    const { expect } = context;
    const { server, peer, init } = await initialized(context);
    expect(init).toMatchObject({
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "stdio-resolvers" } },
    });
    const response = await peer.callTool(
      "provision",
      { name: "orders" },
      acceptingForms({ "Which region should orders live in?": { region: "us-east-1" } }),
    );
    expect(textOf(response)).toBe("Provisioned orders in us-east-1");
    expect(response.result).not.toHaveProperty("resultType");
    expect(peer.asked.map((request) => request.method)).toEqual(["elicitation/create"]);
    expect(peer.asked[0]?.params).toMatchObject({
      message: "Which region should orders live in?",
      requestedSchema: { type: "object", properties: { region: { type: "string" } } },
    });
    await server.stop();
    expect(server.garbage).toEqual([]);
  });

  it("asks two dependent questions in turn, the second naming the first answer", async (context) => {
    const { expect } = context;
    const { peer } = await initialized(context);
    const response = await peer.callTool(
      "enter",
      {},
      acceptingForms({ "Who are you?": { user: "ada" }, "Proceed as ada?": { ok: true } }),
    );
    expect(textOf(response)).toBe("Welcome, ada");
    expect(peer.asked.map((request) => request.params?.message)).toEqual(["Who are you?", "Proceed as ada?"]);
  });

  it("turns a declined question into an error result, not a protocol error", async (context) => {
    const { expect } = context;
    const { peer } = await initialized(context);
    const response = await peer.callTool("enter", {}, acceptingForms({}));
    expect(response.result).toMatchObject({ isError: true });
    expect(textOf(response)).toBe("The user declined the question for 'login'.");
  });

  it("refuses a question the client cannot answer with -32021 before sending it", async (context) => {
    const { expect } = context;
    const server = new RawServer({
      command: process.execPath,
      args: ["--import", "tsx", RESOLVER_SERVER],
      cwd: REPO_ROOT,
    });
    context.onTestFinished(async () => {
      server.kill();
      await server.exited;
    });
    const peer = new LegacyPeer(server);
    await peer.initialize({});
    const response = await peer.callTool("enter", {});
    expect(response).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } },
    });
    expect(peer.asked).toEqual([]);
  });

  it("sends progress notifications for a request that carries a progressToken", async (context) => {
    const { expect } = context;
    const { server, peer } = await initialized(context);
    const response = await peer.callTool("count", { steps: 3 }, undefined, { progressToken: "p1" });
    expect(textOf(response)).toBe("counted 3");
    const progress = server.messages.all.filter((message) => message.method === "notifications/progress");
    expect(progress.map((message) => message.params)).toEqual([
      { progressToken: "p1", progress: 1, total: 3 },
      { progressToken: "p1", progress: 2, total: 3 },
      { progressToken: "p1", progress: 3, total: 3 },
    ]);
  });

  it("cancels the back-channel request when the client cancels the call it serves", async (context) => {
    const { expect } = context;
    const { server, peer } = await initialized(context);
    const callId = peer.nextId;
    // The script leaves the question unanswered; the client then gives up on its call.
    const abandoned = peer.callTool("provision", { name: "orders" }, () => {
      peer.notify("notifications/cancelled", { requestId: callId, reason: "user closed the dialog" });
      return undefined;
    });
    // It never settles with a response; it fails only when the server's output ends.
    abandoned.catch(() => {});
    const cancelled = await server.messages.next((message) => message.method === "notifications/cancelled");
    expect(cancelled.params).toEqual({
      requestId: peer.asked[0]?.id,
      reason: "request cancelled by the client: user closed the dialog",
    });
    const after = await peer.callTool("count", { steps: 1 });
    expect(textOf(after)).toBe("counted 1");
    expect(server.messages.all.filter((message) => message.id === callId)).toEqual([]);
  });

  it("cancels and fails the call when the client does not answer in time", async (context) => {
    const { expect } = context;
    const { server, peer } = await initialized(context, "--request-timeout-ms", "50");
    const response = await peer.callTool("provision", { name: "orders" }, () => undefined);
    expect(response).toMatchObject({ error: { code: -32001, message: "Request timed out" } });
    const cancelled = server.messages.all.find((message) => message.method === "notifications/cancelled");
    expect(cancelled?.params).toMatchObject({ requestId: peer.asked[0]?.id });
  });
});
