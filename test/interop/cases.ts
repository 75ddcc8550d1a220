/**
 * The interop cases every official client runs against the fixture server (`fixture-server.ts`),
 * written once against a thin adapter so each suite only says how its client connects. The
 * client's elicitation handler is `answerElicitation`: it records each question and accepts it.
 */
import { expect, it } from "vitest";

/** Progress as the official clients report it. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
}

/** What the cases need of a connected client; each suite adapts its SDK's client to it. */
export interface InteropPeer {
  /** The elicitation messages the client's handler answered, oldest first. */
  readonly asked: string[];
  listTools(): Promise<{ tools: readonly { name: string }[] }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<{ content: readonly unknown[]; isError?: boolean }>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: readonly unknown[] }>;
  readResource(uri: string): Promise<{ contents: readonly unknown[] }>;
}

/**
 * The elicitation handler of every client: records the question, answers a region question with
 * `eu-west-1` and a confirmation with `ok: true`.
 */
export function answerElicitation(
  asked: string[],
  message: string,
): { action: "accept"; content: Record<string, string | boolean> } | { action: "decline" } {
  asked.push(message);
  if (message.startsWith("Which region")) return { action: "accept", content: { region: "eu-west-1" } };
  if (message.startsWith("Create")) return { action: "accept", content: { ok: true } };
  return { action: "decline" };
}

const text = (value: string) => [{ type: "text", text: value }];

/** Which cases a suite runs; all by default. */
export interface CaseOptions {
  /**
   * False skips the progress case. The official clients handle a notification a microtask after
   * they read it but a response at once, so over stdio, where the last report and the response
   * can arrive in one read, a report can reach a progress handler already removed. On a
   * handshake-era session the fixture pings the client before answering, which orders them; the
   * 2026-07-28 wire has no back-channel to do so.
   */
  readonly progress?: boolean;
}

/** Registers the cases; `peer` is called inside each test (the suite connects in `beforeAll`). */
export function interopCases(peer: () => InteropPeer, options: CaseOptions = {}): void {
  it("lists the tools", async () => {
    const { tools } = await peer().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "count",
      "echo",
      "order",
      "pick_region",
      "provision",
    ]);
  });

  it("calls a plain tool", async () => {
    expect((await peer().callTool("echo", { text: "hi" })).content).toEqual(text("echo: hi"));
  });

  it("runs a resolver tool that asks one question", async () => {
    const client = peer();
    client.asked.length = 0;
    const result = await client.callTool("pick_region", { name: "orders" });
    expect(result.content).toEqual(text("orders lives in eu-west-1"));
    expect(client.asked).toEqual(["Which region should orders live in?"]);
  });

  it("runs a resolver tool that asks two dependent questions, in order", async () => {
    const client = peer();
    client.asked.length = 0;
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual(text("Provisioned orders in eu-west-1"));
    expect(client.asked).toEqual(["Which region should orders live in?", "Create orders in eu-west-1?"]);
  });

  it("runs an await-style tool: two questions in order, its once step run once", async () => {
    const client = peer();
    client.asked.length = 0;
    const name = `order-${Math.random().toString(36).slice(2)}`;
    const result = await client.callTool("order", { name });
    expect(result.content).toEqual(text(`Ordered ${name} in eu-west-1, created 1 time(s)`));
    expect(client.asked).toEqual([`Which region should ${name} live in?`, `Create ${name} in eu-west-1?`]);
  });

  it("gets a prompt", async () => {
    const { messages } = await peer().getPrompt("greeting", { name: "Ada" });
    expect(messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada." } }]);
  });

  it("reads a resource through a template", async () => {
    const { contents } = await peer().readResource("notes://42");
    expect(contents).toEqual([{ uri: "notes://42", mimeType: "text/plain", text: "note 42" }]);
  });

  it.skipIf(options.progress === false)("receives progress notifications", async () => {
    const updates: ProgressUpdate[] = [];
    const result = await peer().callTool("count", {}, (update) => updates.push(update));
    expect(result.content).toEqual(text("counted to 3"));
    expect(updates.map(({ progress, total }) => ({ progress, total }))).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });
}
