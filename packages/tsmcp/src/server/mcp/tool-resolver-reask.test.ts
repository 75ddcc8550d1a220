/**
 * An accepted answer that does not match a resolver's schema is asked again, the validation message
 * shown in the question, a bounded number of times (`maxInvalidAnswerRetries`), then the call ends
 * with an `isError` result: at 2026-07-28 as a new `InputRequiredResult` round whose sealed state
 * counts the attempts, on a 2025-11-25 session over the back-channel. Real clients, in memory and
 * over Streamable HTTP on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { recordingLogger } from "../../../../../test/helpers/logs.js";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import type { ClientOptions } from "../../client/client.js";
import type { ElicitRequestParams, ElicitResult } from "../../protocol/schema/input.js";
import { elicit } from "../resolve/elicit.js";
import { DEFAULT_MAX_INVALID_ANSWER_RETRIES } from "../resolve/reask.js";
import { resolver } from "../resolve/resolver.js";
import { BOTH_TRANSPORTS, connect, textOf } from "./resolvers-test-fixtures.js";
import { MCPServer, type MCPServerOptions } from "./server.js";

const Login = z.object({ user: z.string().min(2) });

/**
 * `enter`: one question (login), counting handler runs. The server seals with the fixed test key
 * and logs to `logger`.
 */
function loginServer(options: MCPServerOptions = {}) {
  const runs = { handler: 0 };
  const logger = recordingLogger();
  const login = resolver("login", () => elicit("Who are you?", Login));
  const mcp = new MCPServer("reask", {
    requestStateSecurity: testRequestStateSecurity(),
    logger,
    ...options,
  });
  mcp.tool("enter", { resolve: { login } }, (_args, { resolved }) => {
    runs.handler += 1;
    return `Welcome, ${resolved.login.user}`;
  });
  return { mcp, runs, logger };
}

/** An elicitation callback giving `answers` in turn (the last one again once they run out). */
function inTurn(...answers: Record<string, unknown>[]) {
  const messages: string[] = [];
  const elicitationCallback = (params: ElicitRequestParams): ElicitResult => {
    messages.push(params.message);
    const content = answers[Math.min(messages.length - 1, answers.length - 1)] as Record<string, never>;
    return { action: "accept", content };
  };
  return { messages, elicitationCallback };
}

const ERAS: readonly [string, ClientOptions][] = [
  ["2026-07-28", {}],
  ["a 2025-11-25 session", { protocolVersion: "legacy" }],
];

describe.each(BOTH_TRANSPORTS)("an off-schema answer to a resolver's question, %s", (via) => {
  describe.each(ERAS)("at %s", (_era, eraOptions) => {
    it("is asked again with the validation message in the question, and the handler runs once with the corrected answer", async () => {
      const { mcp, runs } = loginServer();
      const { messages, elicitationCallback } = inTurn({ user: 42 }, { user: "ada" });
      const client = await connect(mcp, via, { ...eraOptions, elicitationCallback });
      expect(client.era).toBe(eraOptions.protocolVersion === "legacy" ? "legacy" : "modern");
      const result = await client.callTool("enter");
      expect(textOf(result)).toBe("Welcome, ada");
      expect(runs.handler).toBe(1);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toBe("Who are you?");
      expect(messages[1]).toMatch(
        /^Who are you\?\n\nYour previous answer was not accepted \(user: .+\)\. Please answer again\.$/,
      );
    });

    it("ends the call with an isError result once maxInvalidAnswerRetries re-asks are spent", async () => {
      const { mcp, runs } = loginServer({ maxInvalidAnswerRetries: 1 });
      const { messages, elicitationCallback } = inTurn({ user: "a" });
      const client = await connect(mcp, via, { ...eraOptions, elicitationCallback });
      const result = await client.callTool("enter");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "The answer to resolver 'login' still does not match the requested schema after 2 attempts (fields: user).",
      );
      expect(messages).toHaveLength(2);
      expect(runs.handler).toBe(0);
    });

    it(`asks ${DEFAULT_MAX_INVALID_ANSWER_RETRIES + 1} times in all by default`, async () => {
      const { mcp } = loginServer();
      const { messages, elicitationCallback } = inTurn({ user: 7 });
      const client = await connect(mcp, via, { ...eraOptions, elicitationCallback });
      expect((await client.callTool("enter")).isError).toBe(true);
      expect(messages).toHaveLength(DEFAULT_MAX_INVALID_ANSWER_RETRIES + 1);
    });

    it("ends the call at the first off-schema answer with maxInvalidAnswerRetries: 0", async () => {
      const { mcp } = loginServer({ maxInvalidAnswerRetries: 0 });
      const { messages, elicitationCallback } = inTurn({ user: 7 });
      const client = await connect(mcp, via, { ...eraOptions, elicitationCallback });
      const result = await client.callTool("enter");
      expect(textOf(result)).toBe(
        "The answer to resolver 'login' does not match the requested schema (fields: user).",
      );
      expect(messages).toHaveLength(1);
    });
  });

  it("counts the attempts inside the sealed requestState: a state the client alters is refused", async () => {
    const { mcp, logger } = loginServer({ maxInvalidAnswerRetries: 1 });
    const client = await connect(mcp, via, { capabilities: { elicitation: {} } });
    const leg = (inputResponses?: Record<string, ElicitResult>, requestState?: string) =>
      client.session.callTool(
        "enter",
        {},
        {
          allowInputRequired: true,
          ...(inputResponses === undefined ? {} : { inputResponses }),
          ...(requestState === undefined ? {} : { requestState }),
        },
      );
    const off = { login: { action: "accept" as const, content: { user: "a" } } };
    const first = await leg();
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    const reasked = await leg(off, first.requestState);
    if (reasked.resultType !== "input_required") throw new Error("expected input_required");
    expect(reasked.inputRequests?.login?.params).toMatchObject({
      message: expect.stringContaining("Your previous answer was not accepted"),
    });
    expect(reasked.requestState).not.toContain("login");
    // One character of the sealed body, before the last (whose padding bits may make the change
    // "malformed" rather than a failed seal).
    const state = reasked.requestState ?? "";
    const at = state.length - 10;
    const altered = `${state.slice(0, at)}${state[at] === "A" ? "B" : "A"}${state.slice(at + 1)}`;
    await expect(leg(off, altered)).rejects.toMatchObject({ code: -32602 });
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: "requestState rejected on tools/call: seal",
        fields: { method: "tools/call", reason: "seal" },
      },
    ]);
    const last = await leg(off, reasked.requestState);
    expect(last).toMatchObject({ isError: true });
  });
});

describe("the maxInvalidAnswerRetries option", () => {
  it("is checked when the server is built", () => {
    expect(() => new MCPServer("s", { maxInvalidAnswerRetries: -1 })).toThrow(RangeError);
    expect(() => new MCPServer("s", { maxInvalidAnswerRetries: 1.5 })).toThrow(RangeError);
    expect(() => new MCPServer("s", { maxInvalidAnswerRetries: "2" as unknown as number })).toThrow(
      TypeError,
    );
  });
});
