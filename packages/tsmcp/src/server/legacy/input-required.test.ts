import { describe, expect, it } from "vitest";
import type { ElicitResult } from "../../protocol/schema/input.js";
import type { BackChannelRequest } from "../../transport/dispatcher.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { MCPServer } from "../mcp/server.js";
import { Server, type ServerOptions } from "../server.js";
import { requestStateBoundary } from "../state/boundary.js";
import { RequestStateSecurity } from "../state/policy.js";
import { KEY_A } from "../state/state-test-fixtures.js";
import { DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS } from "./input-required.js";
import {
  capturingLogger,
  errorOf,
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf,
  tableBackChannel,
  testSession,
} from "./legacy-test-fixtures.js";

const ASK_REGION = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});
const ASK_SIZE = elicitationRequest({
  message: "Which size?",
  requestedSchema: { type: "object", properties: { size: { type: "string" } }, required: ["size"] },
});

/** A provisioning tool that asks for a region and a size in round 1, then a confirmation in round 2. */
function provisioner(options: Partial<ServerOptions> = {}, seenStates: unknown[] = []) {
  return new Server("Provisioner", {
    ...options,
    onCallTool: (_ctx, params) => {
      seenStates.push(params.requestState);
      const answers = params.inputResponses as Record<string, ElicitResult> | undefined;
      if (params.requestState === undefined) {
        return inputRequired({
          inputRequests: { region: ASK_REGION, size: ASK_SIZE },
          requestState: "step-1",
        });
      }
      if (params.requestState === "step-1") {
        const region = answers?.region?.content?.region;
        const size = answers?.size?.content?.size;
        return inputRequired({
          inputRequests: { confirm: ASK_REGION },
          requestState: `step-2:${String(region)}:${String(size)}`,
        });
      }
      return { content: [{ type: "text", text: `provisioned at ${String(params.requestState)}` }] };
    },
  });
}

const CLIENT = {
  "elicitation/create": (params: Record<string, unknown> | undefined) =>
    params?.message === "Which size?"
      ? { action: "accept", content: { size: "xl" } }
      : { action: "accept", content: { region: "eu" } },
};

async function callProvision(server: Server | MCPServer, request?: BackChannelRequest) {
  const session = testSession();
  await handshake(server, session, { elicitation: {} });
  return server.handle(
    legacyRequest("tools/call", { name: "provision" }),
    legacyEnv(session, request === undefined ? {} : { request }),
  );
}

const REFUSED_TOOL =
  "This tool asks for input with an InputRequiredResult, which a 2025-era session cannot carry; " +
  'connect with a 2026-07-28 client, or the server can set legacyInputRequired: "fulfil" to ask over ' +
  "the session";

describe("a hand-built InputRequiredResult on a 2025-era session", () => {
  it("is answered by default with a -32603 that says why and what fixes it, and the reason logged", async () => {
    const logger = capturingLogger();
    const channel = tableBackChannel(CLIENT);
    const error = errorOf(await callProvision(provisioner({ logger }), channel));
    expect(error).toEqual({ code: -32603, message: REFUSED_TOOL });
    expect(channel.sent).toEqual([]);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.message).toBe("handler for tools/call returned an invalid result");
    expect(JSON.stringify(logger.lines[0]?.fields)).toMatch(
      /InputRequiredResult cannot be sent on a 2025-era session/,
    );
  });

  it("is refused the same way with a requestState boundary installed", async () => {
    const logger = capturingLogger();
    const states: unknown[] = [];
    const server = provisioner({ logger }, states).use(
      requestStateBoundary(new RequestStateSecurity({ keys: [KEY_A] }), { defaultAudience: "Provisioner" }),
    );
    expect(errorOf(await callProvision(server, tableBackChannel(CLIENT))).code).toBe(-32603);
    expect(logger.lines.map((line) => line.message)).toEqual([
      "handler for tools/call returned an invalid result",
    ]);
  });

  it("is fulfilled over the back-channel with legacyInputRequired fulfil, every round's requests sent concurrently", async () => {
    const states: unknown[] = [];
    let inFlight = 0;
    let most = 0;
    const request: BackChannelRequest = async (method, params, options) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // One turn of the event loop: every request of the round is sent by then, if sent together.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return tableBackChannel(CLIENT)(method, params, options);
    };
    const response = await callProvision(provisioner({ legacyInputRequired: "fulfil" }, states), request);
    expect(resultOf(response)).toEqual({ content: [{ type: "text", text: "provisioned at step-2:eu:xl" }] });
    expect(states).toEqual([undefined, "step-1", "step-2:eu:xl"]);
    expect(most).toBe(2);
  });

  it("is fulfilled through the whole middleware chain, so a requestState boundary seals and opens each round", async () => {
    const states: unknown[] = [];
    const seenOnTheWire: unknown[] = [];
    const server = provisioner({ legacyInputRequired: "fulfil" }, states)
      .use(async (request, next) => {
        seenOnTheWire.push(request.params.requestState);
        return next(request);
      })
      .use(
        requestStateBoundary(new RequestStateSecurity({ keys: [KEY_A] }), { defaultAudience: "Provisioner" }),
      );
    const response = await callProvision(server, tableBackChannel(CLIENT));
    expect(resultOf(response)).toEqual({ content: [{ type: "text", text: "provisioned at step-2:eu:xl" }] });
    expect(states).toEqual([undefined, "step-1", "step-2:eu:xl"]);
    // Outside the boundary, the retried requests carry sealed tokens, never the plaintext.
    expect(seenOnTheWire).toHaveLength(3);
    expect(seenOnTheWire[0]).toBeUndefined();
    for (const token of seenOnTheWire.slice(1)) {
      expect(typeof token).toBe("string");
      expect(token).not.toMatch(/^step-/);
    }
  });

  it("passes the answers as inputResponses keyed as asked", async () => {
    const seen: unknown[] = [];
    const server = new Server("Asker", {
      legacyInputRequired: "fulfil",
      onCallTool: (_ctx, params) => {
        seen.push(params.inputResponses);
        return params.inputResponses === undefined
          ? inputRequired({ inputRequests: { region: ASK_REGION } })
          : { content: [] };
      },
    });
    await callProvision(server, tableBackChannel(CLIENT));
    expect(seen).toEqual([undefined, { region: { action: "accept", content: { region: "eu" } } }]);
  });

  it(`pins the round cap at ${DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS} and answers -32603 past it`, async () => {
    expect(DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS).toBe(10);
    const logger = capturingLogger();
    let calls = 0;
    const server = new Server("Forever", {
      logger,
      legacyInputRequired: "fulfil",
      onCallTool: () => {
        calls++;
        return inputRequired({ requestState: `round-${calls}` });
      },
    });
    const error = errorOf(await callProvision(server, tableBackChannel(CLIENT)));
    expect(error).toEqual({ code: -32603, message: "Handler returned an invalid result" });
    expect(calls).toBe(DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS + 1);
    expect(JSON.stringify(logger.lines.at(-1)?.fields)).toMatch(/after 10 rounds/);
  });

  it("answers -32603 when fulfil has no back-channel to ask over", async () => {
    const logger = capturingLogger();
    const error = errorOf(await callProvision(provisioner({ logger, legacyInputRequired: "fulfil" })));
    expect(error).toEqual({ code: -32603, message: "Handler returned an invalid result" });
    expect(JSON.stringify(logger.lines[0]?.fields)).toMatch(/needs a back-channel/);
  });

  it("answers with the client's error when the client refuses an input request", async () => {
    const error = errorOf(
      await callProvision(provisioner({ legacyInputRequired: "fulfil" }), tableBackChannel({})),
    );
    expect(error.code).toBe(-32601);
  });

  it("is refused the same way for an MCPServer by default, and a prompt's refusal names a prompt", async () => {
    const mcp = new MCPServer("Provisioner", { logger: capturingLogger() });
    mcp.tool("provision", {}, async () => inputRequired({ inputRequests: { region: ASK_REGION } }));
    mcp.prompt("briefing", {}, async () => inputRequired({ inputRequests: { region: ASK_REGION } }));
    expect(errorOf(await callProvision(mcp, tableBackChannel(CLIENT)))).toEqual({
      code: -32603,
      message: REFUSED_TOOL,
    });
    const session = testSession();
    await handshake(mcp, session, { elicitation: {} });
    const prompt = errorOf(
      await mcp.handle(legacyRequest("prompts/get", { name: "briefing" }), legacyEnv(session, {})),
    );
    expect(prompt.message).toMatch(/^This prompt asks for input with an InputRequiredResult/);
  });

  it("is fulfilled for an MCPServer given legacyInputRequired fulfil", async () => {
    const mcp = new MCPServer("Provisioner", { legacyInputRequired: "fulfil" });
    mcp.tool("provision", {}, async (_args, ctx) => {
      const answer = ctx.inputResponses?.region as ElicitResult | undefined;
      if (answer === undefined)
        return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "s" });
      return `region ${String(answer.content?.region)} after ${String(ctx.requestState)}`;
    });
    const result = resultOf(await callProvision(mcp, tableBackChannel(CLIENT)));
    expect(result.content).toEqual([{ type: "text", text: "region eu after s" }]);
  });
});

describe("the legacyInputRequired option", () => {
  it("is checked when a Server or an MCPServer is built", () => {
    for (const value of ["always", true, 1, null]) {
      expect(() => new Server("s", { legacyInputRequired: value as never })).toThrow(
        'Server option "legacyInputRequired" must be "refuse" or "fulfil"',
      );
      expect(() => new MCPServer("s", { legacyInputRequired: value as never })).toThrow(
        'MCPServer option "legacyInputRequired" must be "refuse" or "fulfil"',
      );
    }
    expect(() => new Server("s", { legacyInputRequired: "refuse" })).not.toThrow();
    expect(() => new MCPServer("s", { legacyInputRequired: "fulfil" })).not.toThrow();
  });
});
