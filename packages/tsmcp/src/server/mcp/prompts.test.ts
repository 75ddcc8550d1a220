/**
 * `MCPServer` prompts end to end over Streamable HTTP: listing, arguments, results, completion,
 * and a prompt that asks the user through a multi round-trip request.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import type { ElicitRequestFormParams } from "../../protocol/schema/input.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { readElicitation } from "../schema/elicitation-answer.js";
import { overHttp, postRaw, recordingLogger } from "./mcp-test-fixtures.js";
import { MCPServer } from "./server.js";

const ASK_AUDIENCE = elicitationRequest({
  message: "Who is the briefing for?",
  requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
});
const Audience = z.object({ audience: z.string().min(1) });

function briefingServer(): MCPServer {
  const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
  mcp.prompt(
    "briefing",
    {
      description: "A status briefing",
      argsSchema: z.object({ topic: z.string().describe("What the briefing covers") }),
      complete: { topic: (value) => ["billing", "backups", "bandwidth"].filter((t) => t.startsWith(value)) },
    },
    async ({ topic }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.audience, Audience);
      if (answer.status !== "accepted") {
        return inputRequired({
          inputRequests: { audience: ASK_AUDIENCE },
          requestState: `briefing:${topic}`,
        });
      }
      return [
        {
          role: "user",
          content: {
            type: "text",
            text: `Brief ${answer.content.audience} on ${topic} (state ${ctx.requestState ?? "none"}).`,
          },
        },
      ];
    },
  );
  return mcp;
}

/** A client that drives the loop itself but declares forms, as the briefing prompt asks one. */
const ANSWERS_FORMS = { capabilities: { elicitation: { form: {} } } };

describe("a prompt that asks for input", () => {
  it("completes through the client's MRTR loop with the user's answer", async () => {
    const asked: ElicitRequestFormParams[] = [];
    const { client } = await overHttp(briefingServer(), {
      elicitationCallback: async (params) => {
        asked.push(params as ElicitRequestFormParams);
        return { action: "accept", content: { audience: "the board" } };
      },
    });
    const result = await client.getPrompt("briefing", { topic: "billing" });
    expect(asked.map((p) => p.message)).toEqual(["Who is the briefing for?"]);
    expect(result.description).toBe("A status briefing");
    expect(result.messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: "Brief the board on billing (state briefing:billing)." },
      },
    ]);
  });

  it("answers the first leg with the question and a sealed state, and the retry with the messages", async () => {
    const { client } = await overHttp(briefingServer(), ANSWERS_FORMS);
    const first = await client.session.getPrompt(
      "briefing",
      { topic: "backups" },
      { allowInputRequired: true },
    );
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { audience: ASK_AUDIENCE } });
    const state = (first as { requestState: string }).requestState;
    expect(state).toMatch(/^v1\./);
    expect(state).not.toContain("briefing:backups");
    const second = await client.session.getPrompt(
      "briefing",
      { topic: "backups" },
      {
        allowInputRequired: true,
        inputResponses: { audience: { action: "accept", content: { audience: "ops" } } },
        requestState: state,
      },
    );
    expect(second).toMatchObject({
      resultType: "complete",
      messages: [{ content: { text: "Brief ops on backups (state briefing:backups)." } }],
    });
  });

  it("asks again when the answer is declined", async () => {
    const { client } = await overHttp(briefingServer(), ANSWERS_FORMS);
    const again = await client.session.getPrompt(
      "briefing",
      { topic: "billing" },
      { allowInputRequired: true, inputResponses: { audience: { action: "decline" } } },
    );
    expect(again).toMatchObject({ resultType: "input_required", inputRequests: { audience: ASK_AUDIENCE } });
  });
});

describe("prompts/list and prompts/get", () => {
  it("advertises arguments from the schema: names, descriptions, required", async () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt(
      "review",
      {
        title: "Code review",
        argsSchema: z.object({ diff: z.string().describe("The diff"), tone: z.string().optional() }),
      },
      ({ diff }) => `Review ${diff}`,
    );
    mcp.prompt("plain", {}, () => "Say hello.");
    const { client } = await overHttp(mcp);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "review",
        title: "Code review",
        arguments: [
          { name: "diff", description: "The diff", required: true },
          { name: "tone", required: false },
        ],
      },
      { name: "plain" },
    ]);
  });

  it("turns a string into one user message and passes a GetPromptResult through", async () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("plain", {}, () => "Say hello.");
    mcp.prompt("full", {}, () => ({
      description: "custom",
      messages: [{ role: "assistant" as const, content: { type: "text" as const, text: "Hi." } }],
    }));
    const { client } = await overHttp(mcp);
    expect((await client.getPrompt("plain")).messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello." } },
    ]);
    expect(await client.getPrompt("full")).toMatchObject({
      description: "custom",
      messages: [{ role: "assistant", content: { text: "Hi." } }],
    });
  });

  it("answers invalid arguments with -32602 naming the field, on every round", async () => {
    const { client } = await overHttp(briefingServer());
    await expect(client.getPrompt("briefing", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt briefing: topic: /),
    });
    await expect(
      client.session.getPrompt(
        "briefing",
        {},
        { inputResponses: { audience: { action: "accept", content: { audience: "x" } } } },
      ),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("answers invalid arguments in a bounded message: five issues named, the rest counted, each cut", async () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("labels", { argsSchema: z.record(z.string(), z.string().max(1)) }, () => "ok");
    mcp.prompt("strict", { argsSchema: z.strictObject({ topic: z.string() }) }, () => "ok");
    const { url } = await overHttp(mcp);
    const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`label${i}`, "too long"]));
    const labels = await postRaw(url, "prompts/get", { name: "labels", arguments: many });
    expect(JSON.stringify(labels).length).toBeLessThan(2048);
    expect(labels).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid arguments for prompt labels: label0: .*; and 19995 more$/),
      },
    });
    const strict = await postRaw(url, "prompts/get", {
      name: "strict",
      arguments: { topic: "x", ["k".repeat(100_000)]: "y" },
    });
    expect(JSON.stringify(strict).length).toBeLessThan(2048);
    expect(strict).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid arguments for prompt strict: Unrecognized key: "k+…$/),
      },
    });
  });

  it("answers an unknown prompt with -32602", async () => {
    const { client } = await overHttp(
      new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() }),
    );
    await expect(client.getPrompt("nope")).rejects.toMatchObject({
      code: -32602,
      message: "Unknown prompt: nope",
    });
  });

  it("answers a prompt that throws with -32603 and logs the cause", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("prompts", { logger });
    mcp.prompt("broken", {}, () => {
      throw new Error("template missing");
    });
    const { client } = await overHttp(mcp);
    await expect(client.getPrompt("broken")).rejects.toMatchObject({
      code: -32603,
      message: "Internal error",
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({ level: "error", message: "handler for prompts/get failed" }),
    );
  });

  it("pages prompts in registration order", async () => {
    const mcp = new MCPServer("prompts", { pageSize: 1, requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("b", {}, () => "b");
    mcp.prompt("a", {}, () => "a");
    const { client } = await overHttp(mcp);
    const first = await client.listPrompts();
    expect(first.prompts.map((p) => p.name)).toEqual(["b"]);
    const second = await client.listPrompts({ cursor: first.nextCursor as string });
    expect(second.prompts.map((p) => p.name)).toEqual(["a"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("refuses a cursor it did not issue for prompts/list with -32602 Invalid cursor", async () => {
    const mcp = new MCPServer("prompts", { pageSize: 1, requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("b", {}, () => "b");
    mcp.prompt("a", {}, () => "a");
    mcp.tool("t1", {}, () => "");
    mcp.tool("t2", {}, () => "");
    const { client } = await overHttp(mcp);
    const promptCursor = (await client.listPrompts()).nextCursor as string;
    const toolCursor = (await client.listTools()).nextCursor as string;
    expect(toolCursor).toEqual(expect.any(String));
    for (const cursor of [
      "x",
      "",
      `${promptCursor}=`,
      toolCursor,
      Buffer.from("prompts:1").toString("base64url"),
    ]) {
      await expect(client.listPrompts({ cursor }), cursor).rejects.toMatchObject({
        code: -32602,
        message: "Invalid cursor",
      });
    }
    expect((await client.listPrompts({ cursor: promptCursor })).prompts.map((p) => p.name)).toEqual(["a"]);
  });
});

describe("completion of prompt arguments", () => {
  it("suggests values from the argument's completer", async () => {
    const { client } = await overHttp(briefingServer());
    const result = await client.complete({
      ref: { type: "ref/prompt", name: "briefing" },
      argument: { name: "topic", value: "b" },
    });
    expect(result.completion).toEqual({ values: ["billing", "backups", "bandwidth"] });
    const narrowed = await client.complete({
      ref: { type: "ref/prompt", name: "briefing" },
      argument: { name: "topic", value: "ba" },
    });
    expect(narrowed.completion.values).toEqual(["backups", "bandwidth"]);
  });

  it("caps suggestions at 100, reporting the total", async () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt(
      "many",
      {
        argsSchema: z.object({ n: z.string(), other: z.string() }),
        complete: {
          n: (_value, { arguments: known }) => Array.from({ length: 150 }, (_, i) => `${known.other}${i}`),
        },
      },
      () => "",
    );
    const { client } = await overHttp(mcp);
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "many" },
      argument: { name: "n", value: "" },
      context: { arguments: { other: "x" } },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe("x0");
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it("suggests nothing for an argument without a completer, and refuses an unknown prompt", async () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("p", { argsSchema: z.object({ a: z.string() }) }, () => "");
    const { client } = await overHttp(mcp);
    expect(
      (await client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }))
        .completion,
    ).toEqual({ values: [] });
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "zzz" }, argument: { name: "a", value: "" } }),
    ).rejects.toMatchObject({ code: -32602, message: "Unknown prompt: zzz" });
  });

  it("refuses a completer for an argument the schema does not have, at registration", () => {
    const mcp = new MCPServer("prompts", { requestStateSecurity: testRequestStateSecurity() });
    expect(() =>
      mcp.prompt(
        "p",
        { argsSchema: z.object({ a: z.string() }), complete: { b: () => [] } as never },
        () => "",
      ),
    ).toThrow(/complete.b names no argument \(known: a\)/);
  });
});
