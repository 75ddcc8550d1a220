/**
 * The cases the tsmcp `Client` runs against the official servers (`official-v1-server.ts`), written
 * once; each suite says only how it connects. The client's callbacks are the ones the
 * multi-round-trip loop uses at 2026-07-28: here they answer the server's back-channel requests.
 */
import { expect, it } from "vitest";
import type { Client, ClientOptions } from "../../packages/tsmcp/src/client/index.js";
import type {
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
} from "../../packages/tsmcp/src/protocol/index.js";

/** What the callbacks were asked, oldest first. */
export interface Asked {
  readonly elicitation: string[];
  readonly sampling: string[];
  roots: number;
  /** What reached the client-wide `onLog`. */
  readonly logs: LoggingMessageNotificationParams[];
}

/** The callbacks every suite registers, recording into `asked`. */
export function interopCallbacks(
  asked: Asked,
): Required<Pick<ClientOptions, "elicitationCallback" | "samplingCallback" | "listRootsCallback" | "onLog">> {
  return {
    onLog: (message) => asked.logs.push(message),
    elicitationCallback: (params) => {
      asked.elicitation.push(params.message);
      return { action: "accept", content: { region: "eu-west-1" } };
    },
    samplingCallback: (params) => {
      const first = params.messages[0]?.content;
      asked.sampling.push(first !== undefined && "text" in first ? String(first.text) : "");
      return { role: "assistant", content: { type: "text", text: "all good" }, model: "interop-model" };
    },
    listRootsCallback: () => {
      asked.roots += 1;
      return { roots: [{ uri: "file:///work/a", name: "a" }, { uri: "file:///work/b" }] };
    },
  };
}

/** A fresh record of what was asked. */
export function newAsked(): Asked {
  return { elicitation: [], sampling: [], roots: 0, logs: [] };
}

const text = (value: string) => [{ type: "text", text: value }];

/** Which cases a suite runs; all by default. */
export interface ClientCaseOptions {
  /**
   * False skips the cases that need the server to ask the client (elicitation, sampling, roots)
   * or to remember the client between requests (cancellation, roots changes, the log level): a
   * stateless 1.x server answers each POST with a fresh server, so it has no back-channel.
   */
  readonly backChannel?: boolean;
  /**
   * False where a log message cannot be tied to the request it belongs to (stdio: it carries no
   * request id, and arrives at the client-wide `onLog`); over HTTP it arrives on the request's own
   * stream and reaches the request's `onLog`.
   */
  readonly logsNameTheirRequest?: boolean;
}

/** Registers the cases; `client` is called inside each test (the suite connects in `beforeAll`). */
export function clientCases(client: () => Client, asked: Asked, options: ClientCaseOptions = {}): void {
  it("agrees on the handshake era, at 2025-11-25", () => {
    expect(client().protocolVersion).toBe("2025-11-25");
    expect(client().serverInfo?.name).toBe("official-v1-fixture");
    expect(client().serverCapabilities?.tools).toBeDefined();
  });

  it("lists the tools", async () => {
    const { tools } = await client().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "announce",
      "chatty",
      "count",
      "echo",
      "pick_region",
      "roots",
      "seen",
      "summarize",
      "wait",
    ]);
  });

  it("calls a plain tool, whose result has no resultType and is complete", async () => {
    const result = await client().callTool("echo", { text: "hi" });
    expect(result.content).toEqual(text("echo: hi"));
    expect(result.isError).toBeFalsy();
  });

  it("gets a prompt and reads a resource through a template", async () => {
    const prompt = await client().getPrompt("greeting", { name: "Ada" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada." } }]);
    const { contents } = await client().readResource("notes://42");
    expect(contents).toEqual([{ uri: "notes://42", mimeType: "text/plain", text: "note 42" }]);
  });

  it("receives progress notifications through onProgress", async () => {
    const updates: ProgressNotificationParams[] = [];
    const result = await client().callTool("count", {}, { onProgress: (update) => updates.push(update) });
    expect(result.content).toEqual(text("counted to 3"));
    expect(updates.map(({ progress, total }) => ({ progress, total }))).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("receives the tool's log messages through onLog", async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    asked.logs.length = 0;
    const result = await client().callTool(
      "chatty",
      {},
      { logLevel: "debug", onLog: (message) => logs.push(message) },
    );
    expect(result.content).toEqual(text("chatted"));
    // Over stdio a log message names no request, so the client-wide onLog gets it.
    const received = options.logsNameTheirRequest === false ? asked.logs : logs;
    expect(received.map(({ level, data }) => ({ level, data }))).toEqual([
      { level: "info", data: "starting" },
      { level: "warning", data: "almost done" },
    ]);
  });

  it.skipIf(options.backChannel === false)(
    "answers the server's elicitation/create with elicitationCallback",
    async () => {
      asked.elicitation.length = 0;
      const result = await client().callTool("pick_region", { name: "orders" });
      expect(result.content).toEqual(text("orders lives in eu-west-1"));
      expect(asked.elicitation).toEqual(["Which region should orders live in?"]);
    },
  );

  it.skipIf(options.backChannel === false)(
    "answers the server's sampling/createMessage with samplingCallback",
    async () => {
      asked.sampling.length = 0;
      const result = await client().callTool("summarize", { topic: "the logs" });
      expect(result.content).toEqual(text("interop-model said: all good"));
      expect(asked.sampling).toEqual(["Summarize the logs."]);
    },
  );

  it.skipIf(options.backChannel === false)(
    "answers the server's roots/list with listRootsCallback",
    async () => {
      const before = asked.roots;
      const result = await client().callTool("roots", {});
      expect(result.content).toEqual(text("file:///work/a, file:///work/b"));
      expect(asked.roots).toBe(before + 1);
    },
  );

  it.skipIf(options.backChannel === false)(
    "cancels a call through its signal: the server sees notifications/cancelled with the reason",
    async () => {
      const controller = new AbortController();
      const call = client().callTool(
        "wait",
        {},
        { signal: controller.signal, onProgress: () => controller.abort("the user gave up") },
      );
      await expect(call).rejects.toThrow();
      const seen = await client().callTool("seen", {});
      expect(seen.content).toEqual(text("cancelled: the user gave up"));
    },
  );

  it.skipIf(options.backChannel === false)(
    "tells the server the roots changed with notifyRootsChanged",
    async () => {
      await client().notifyRootsChanged();
      const seen = await client().callTool("seen", {});
      expect((seen.content[0] as { text: string }).text).toContain("roots changed");
    },
  );

  it.skipIf(options.backChannel === false)(
    "sets the session's log level with setLoggingLevel; the messages reach the client's onLog",
    async () => {
      await client().setLoggingLevel("error");
      asked.logs.length = 0;
      expect((await client().callTool("announce", {})).content).toEqual(text("announced"));
      expect(asked.logs.map(({ level, data }) => ({ level, data }))).toEqual([
        { level: "error", data: "error note" },
      ]);
    },
  );
}
