import { describe, expect, it } from "vitest";
import { Client } from "../../client/client.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import type { InputRequest } from "../../protocol/schema/input.js";
import { InMemoryTransport } from "../../transport/memory.js";
import { inputRequestCapabilityGate } from "../capability-gate.js";
import { elicitationRequest, inputRequired, rootsRequest, samplingRequest } from "../input-required.js";
import { Server } from "../server.js";
import { MCPServer } from "./server.js";

const FORM = elicitationRequest({ message: "Region?", requestedSchema: { type: "object", properties: {} } });
const URL_MODE = elicitationRequest({
  mode: "url",
  message: "Sign in",
  url: "https://example.com/login",
  elicitationId: "e1",
});
const SAMPLE = samplingRequest({ messages: [], maxTokens: 10 });
const SAMPLE_WITH_TOOLS = samplingRequest({
  messages: [],
  maxTokens: 10,
  tools: [{ name: "t", inputSchema: { type: "object" } }],
});

/** An MCPServer whose `ask` tool hand-builds one round asking `request`. */
function askingServer(request: InputRequest): MCPServer {
  const mcp = new MCPServer("asker", { logger: { debug() {}, info() {}, warn() {}, error() {} } });
  mcp.tool("ask", {}, () => inputRequired({ inputRequests: { q: request }, requestState: "s" }));
  return mcp;
}

async function ask(server: MCPServer | Server, capabilities: ClientCapabilities) {
  const client = await Client.connect(new InMemoryTransport(server), { capabilities });
  return client.session.callTool("ask", undefined, { allowInputRequired: true });
}

describe("MCPServer refuses a hand-built input request the client did not declare", () => {
  it.each([
    ["a form elicitation", FORM, {}, { elicitation: { form: {} } }, "form elicitation"],
    [
      "a form elicitation from a URL-only client",
      FORM,
      { elicitation: { url: {} } },
      { elicitation: { form: {} } },
      "form elicitation",
    ],
    [
      "a URL elicitation when only form was declared",
      URL_MODE,
      { elicitation: { form: {} } },
      { elicitation: { url: {} } },
      "URL elicitation",
    ],
    [
      "a URL elicitation when elicitation: {} was declared",
      URL_MODE,
      { elicitation: {} },
      { elicitation: { url: {} } },
      "URL elicitation",
    ],
    ["a sampling request", SAMPLE, { elicitation: {} }, { sampling: {} }, "sampling"],
    [
      "a sampling request with tools",
      SAMPLE_WITH_TOOLS,
      { sampling: {} },
      { sampling: { tools: {} } },
      "sampling.tools",
    ],
    ["a roots request", rootsRequest(), { sampling: {} }, { roots: {} }, "roots"],
  ] as const)(
    "refuses %s with -32021 and data.requiredCapabilities",
    async (_, request, declared, required, label) => {
      await expect(ask(askingServer(request), declared)).rejects.toMatchObject({
        name: "McpError",
        code: -32021,
        message: `Client did not declare the ${label} capability required by input request 'q'`,
        data: { requiredCapabilities: required },
      });
    },
  );

  it.each([
    ["a form elicitation", FORM, { elicitation: {} }],
    ["a URL elicitation", URL_MODE, { elicitation: { url: {} } }],
    ["a sampling request", SAMPLE, { sampling: {} }],
    ["a sampling request with tools", SAMPLE_WITH_TOOLS, { sampling: { tools: {} } }],
    ["a roots request", rootsRequest(), { roots: {} }],
  ] as const)("lets %s out when it was declared", async (_, request, declared) => {
    await expect(ask(askingServer(request), declared)).resolves.toMatchObject({
      resultType: "input_required",
      inputRequests: { q: request },
    });
  });
});

describe("the low-level Server's capability gate", () => {
  function lowLevel(): Server {
    return new Server("low", {
      onCallTool: () => inputRequired({ inputRequests: { q: SAMPLE }, requestState: "s" }),
    });
  }

  it("is one line to opt into: server.use(inputRequestCapabilityGate())", async () => {
    const server = lowLevel().use(inputRequestCapabilityGate());
    await expect(ask(server, {})).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    await expect(ask(server, { sampling: {} })).resolves.toMatchObject({ resultType: "input_required" });
  });

  it("passes a result that is not input_required, or carries only state, untouched", async () => {
    const server = new Server("low", {
      onCallTool: (_ctx, params) =>
        params.requestState === undefined
          ? inputRequired({ requestState: "only-state" })
          : { content: [{ type: "text", text: "done" }] },
    }).use(inputRequestCapabilityGate());
    const client = await Client.connect(new InMemoryTransport(server));
    await expect(client.callTool("ask")).resolves.toMatchObject({
      content: [{ type: "text", text: "done" }],
    });
  });
});
