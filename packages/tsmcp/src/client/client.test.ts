import { describe, expect, it } from "vitest";
import type { Clock } from "../protocol/clock.js";
import { McpError } from "../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../protocol/jsonrpc.js";
import type { ElicitResult, InputResponses } from "../protocol/schema/input.js";
import {
  elicitationRequest,
  inputRequired,
  rootsRequest,
  samplingRequest,
} from "../server/input-required.js";
import { Server } from "../server/server.js";
import type { Dispatcher, RequestEnvironment } from "../transport/dispatcher.js";
import { InMemoryTransport } from "../transport/memory.js";
import type { Transport, TransportRequestOptions } from "../transport/transport.js";
import { Client } from "./client.js";
import {
  InputRequiredRoundsExceededError,
  UnexpectedInputRequiredError,
  UnsupportedInputRequestError,
} from "./errors.js";
import {
  DEFAULT_INPUT_REQUIRED_MAX_ROUNDS,
  STATE_ONLY_BACKOFF_INITIAL_MS,
  STATE_ONLY_BACKOFF_MAX_MS,
} from "./index.js";

const ASK_REGION = elicitationRequest({
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
});

/** A transport that records every request it carries (wrapping the real in-memory one). */
class RecordingTransport implements Transport {
  readonly requests: JSONRPCRequest[] = [];
  readonly inner: InMemoryTransport;
  constructor(server: Dispatcher) {
    this.inner = new InMemoryTransport(server);
  }
  get sendsHttpHeaders() {
    return this.inner.sendsHttpHeaders;
  }
  request(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse> {
    this.requests.push(structuredClone(request));
    return this.inner.request(request, options);
  }
  notify(notification: JSONRPCNotification) {
    return this.inner.notify(notification);
  }
  close() {
    return this.inner.close();
  }
  calls(method: string) {
    return this.requests.filter((r) => r.method === method);
  }
}

/** A clock whose sleeps return at once and are recorded. */
function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
}

function accepted(responses: InputResponses | undefined, key: string): Record<string, unknown> | undefined {
  const answer = responses?.[key] as ElicitResult | undefined;
  return answer?.action === "accept" ? answer.content : undefined;
}

function provisioner() {
  return new Server("Provisioner", {
    onCallTool: (_ctx, params) => {
      const region = accepted(params.inputResponses, "region");
      if (region === undefined)
        return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" });
      return {
        content: [
          { type: "text", text: `Provisioned ${String(params.arguments?.name)} in ${String(region.region)}` },
        ],
      };
    },
  });
}

describe("Client.callTool runs the input-required loop", () => {
  it("answers the embedded elicitation and returns the final result", async () => {
    const transport = new RecordingTransport(provisioner());
    const seen: { key: string; round: number; message: string }[] = [];
    const client = await Client.connect(transport, {
      elicitationCallback: (params, context) => {
        seen.push({ key: context.key, round: context.round, message: params.message });
        return { action: "accept", content: { region: "eu-west-1" } };
      },
    });
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders in eu-west-1" }]);
    expect(seen).toEqual([{ key: "region", round: 1, message: "Which region?" }]);
  });

  it("retries with a new id, the same name and arguments, answers under the same keys and the state echoed", async () => {
    const transport = new RecordingTransport(provisioner());
    const client = await Client.connect(transport, {
      elicitationCallback: () => ({ action: "accept", content: { region: "us-east-1" } }),
    });
    const args = { name: "orders", tags: ["a"] };
    const before = structuredClone(args);
    await client.callTool("provision", args);
    const [first, retry] = transport.calls("tools/call");
    expect(first?.id).not.toBe(retry?.id);
    expect(first?.params).not.toHaveProperty("requestState");
    expect(first?.params).not.toHaveProperty("inputResponses");
    expect(retry?.params?.name).toBe("provision");
    expect(retry?.params?.arguments).toEqual(before);
    expect(retry?.params?.requestState).toBe("provision-v1");
    expect(retry?.params?.inputResponses).toEqual({
      region: { action: "accept", content: { region: "us-east-1" } },
    });
    expect(retry?.params?._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
    });
    expect(args).toEqual(before);
  });

  it("carries evolving state through three rounds", async () => {
    const states: (string | undefined)[] = [];
    const server = new Server("s", {
      onCallTool: (_ctx, params) => {
        states.push(params.requestState);
        const step = params.requestState === undefined ? 0 : Number(params.requestState.split(":")[1]);
        if (step < 2) {
          return inputRequired({
            inputRequests: { [`q${step + 1}`]: ASK_REGION },
            requestState: `step:${step + 1}`,
          });
        }
        return { content: [{ type: "text", text: `done after ${step}` }] };
      },
    });
    const keys: string[] = [];
    const client = await Client.connect(server, {
      elicitationCallback: (_params, context) => {
        keys.push(context.key);
        return { action: "accept", content: { region: "x" } };
      },
    });
    const result = await client.callTool("t");
    expect(result.content).toEqual([{ type: "text", text: "done after 2" }]);
    expect(states).toEqual([undefined, "step:1", "step:2"]);
    expect(keys).toEqual(["q1", "q2"]);
  });

  it("dispatches every request of a round concurrently", async () => {
    const server = new Server("s", {
      onCallTool: (_ctx, params) =>
        params.inputResponses === undefined
          ? inputRequired({ inputRequests: { a: ASK_REGION, b: ASK_REGION } })
          : { content: [{ type: "text", text: Object.keys(params.inputResponses).sort().join(",") }] },
    });
    let arrived = 0;
    let release!: () => void;
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = await Client.connect(server, {
      elicitationCallback: async () => {
        arrived += 1;
        if (arrived === 2) release();
        await bothArrived; // would never resolve if the callbacks ran one after the other
        return { action: "accept", content: {} };
      },
    });
    const result = await client.callTool("t");
    expect(result.content).toEqual([{ type: "text", text: "a,b" }]);
  });

  it("routes each kind of input request to its callback in one round", async () => {
    const server = new Server("s", {
      onCallTool: (_ctx, params) =>
        params.inputResponses === undefined
          ? inputRequired({
              inputRequests: {
                ask: ASK_REGION,
                model: samplingRequest({
                  messages: [{ role: "user", content: { type: "text", text: "hi" } }],
                  maxTokens: 5,
                }),
                roots: rootsRequest(),
              },
            })
          : { content: [{ type: "text", text: JSON.stringify(params.inputResponses) }] },
    });
    const client = await Client.connect(server, {
      elicitationCallback: () => ({ action: "decline" }),
      samplingCallback: () => ({ role: "assistant", content: { type: "text", text: "hello" }, model: "m" }),
      listRootsCallback: () => ({ roots: [{ uri: "file:///work" }] }),
    });
    const result = await client.callTool("t");
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      ask: { action: "decline" },
      model: { role: "assistant", content: { type: "text", text: "hello" }, model: "m" },
      roots: { roots: [{ uri: "file:///work" }] },
    });
  });

  it("waits 50 ms doubling to 250 ms before rounds that carry only state, and resets after a round with requests", async () => {
    const script = ["s", "s", "s", "q", "s", "s", "s", "s", "done"];
    let leg = 0;
    const server = new Server("s", {
      onCallTool: () => {
        const step = script[leg++];
        if (step === "done") return { content: [] };
        return step === "q"
          ? inputRequired({ inputRequests: { q: ASK_REGION }, requestState: `r${leg}` })
          : inputRequired({ requestState: `r${leg}` });
      },
    });
    const clock = recordingClock();
    const client = await Client.connect(server, {
      clock,
      elicitationCallback: () => ({ action: "accept", content: {} }),
    });
    await client.callTool("t");
    expect(clock.sleeps).toEqual([50, 100, 200, 50, 100, 200, 250]);
  });

  it("gives up with a typed error after inputRequiredMaxRounds retries", async () => {
    const transport = new RecordingTransport(
      new Server("s", { onCallTool: () => inputRequired({ requestState: "again" }) }),
    );
    const client = await Client.connect(transport, { inputRequiredMaxRounds: 3, clock: recordingClock() });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredRoundsExceededError);
    expect((error as InputRequiredRoundsExceededError).maxRounds).toBe(3);
    expect(transport.calls("tools/call")).toHaveLength(4);
  });

  it("allows ten retries by default", async () => {
    const transport = new RecordingTransport(
      new Server("s", { onCallTool: () => inputRequired({ requestState: "again" }) }),
    );
    const client = await Client.connect(transport, { clock: recordingClock() });
    await expect(client.callTool("t")).rejects.toBeInstanceOf(InputRequiredRoundsExceededError);
    expect(transport.calls("tools/call")).toHaveLength(11);
  });

  it("aborts the call when a callback fails: siblings see their signal abort and no retry is sent", async () => {
    const transport = new RecordingTransport(
      new Server("s", {
        onCallTool: () =>
          inputRequired({ inputRequests: { slow: ASK_REGION, broken: rootsRequest() }, requestState: "x" }),
      }),
    );
    let siblingAborted = false;
    const client = await Client.connect(transport, {
      elicitationCallback: (_params, context) =>
        new Promise((_, reject) => {
          context.signal.addEventListener("abort", () => {
            siblingAborted = true;
            reject(context.signal.reason);
          });
        }),
      listRootsCallback: () => {
        throw new Error("the user closed the dialog");
      },
    });
    await expect(client.callTool("t")).rejects.toThrow("the user closed the dialog");
    expect(siblingAborted).toBe(true);
    expect(transport.calls("tools/call")).toHaveLength(1);
  });

  it("refuses an input request no callback answers, without retrying", async () => {
    const transport = new RecordingTransport(provisioner());
    const client = await Client.connect(transport, {});
    const error = await client.callTool("provision", { name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedInputRequestError);
    expect((error as UnsupportedInputRequestError).key).toBe("region");
    expect(transport.calls("tools/call")).toHaveLength(1);
    expect(transport.calls("tools/call")[0]?.params?._meta).toMatchObject({
      "io.modelcontextprotocol/clientCapabilities": {},
    });
  });

  it("refuses a URL elicitation when only form mode was declared", async () => {
    const server = new Server("s", {
      onCallTool: () =>
        inputRequired({
          inputRequests: { login: elicitationRequest({ mode: "url", message: "Log in", url: "https://x" }) },
        }),
    });
    const client = await Client.connect(server, {
      elicitationCallback: () => ({ action: "accept" }),
      capabilities: { elicitation: { form: {} } },
    });
    await expect(client.callTool("t")).rejects.toBeInstanceOf(UnsupportedInputRequestError);
  });

  it("resumes a loop from a seeded requestState and answers", async () => {
    const transport = new RecordingTransport(provisioner());
    const client = await Client.connect(transport, {});
    const result = await client.callTool(
      "provision",
      { name: "orders" },
      {
        inputResponses: { region: { action: "accept", content: { region: "ap-south-1" } } },
        requestState: "provision-v1",
      },
    );
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders in ap-south-1" }]);
    expect(transport.calls("tools/call")).toHaveLength(1);
  });

  it("surfaces a server error as McpError", async () => {
    const server = new Server("s", {
      onCallTool: () => {
        throw new McpError(-32602, "Unknown tool: t");
      },
    });
    const client = await Client.connect(server);
    await expect(client.callTool("t")).rejects.toMatchObject({
      name: "McpError",
      code: -32602,
      message: "Unknown tool: t",
    });
  });
});

describe("the input-required loop's defaults", () => {
  it("are exported by name from tsmcp/client with their documented values", () => {
    expect({
      DEFAULT_INPUT_REQUIRED_MAX_ROUNDS,
      STATE_ONLY_BACKOFF_INITIAL_MS,
      STATE_ONLY_BACKOFF_MAX_MS,
    }).toStrictEqual({
      DEFAULT_INPUT_REQUIRED_MAX_ROUNDS: 10,
      STATE_ONLY_BACKOFF_INITIAL_MS: 50,
      STATE_ONLY_BACKOFF_MAX_MS: 250,
    });
  });
});

describe("Client.getPrompt and Client.readResource run the same loop", () => {
  const server = new Server("s", {
    onGetPrompt: (_ctx, params) => {
      const audience = accepted(params.inputResponses, "audience");
      return audience === undefined
        ? inputRequired({ inputRequests: { audience: ASK_REGION } })
        : {
            messages: [{ role: "user", content: { type: "text", text: `Brief ${String(audience.region)}` } }],
          };
    },
    onReadResource: (_ctx, params) =>
      params.requestState === "ready"
        ? { contents: [{ uri: params.uri, text: "secret notes" }] }
        : inputRequired({ requestState: "ready" }),
  });

  it("gets a prompt after asking who it is for", async () => {
    const client = await Client.connect(server, {
      elicitationCallback: () => ({ action: "accept", content: { region: "the board" } }),
    });
    const result = await client.getPrompt("briefing");
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "Brief the board" });
  });

  it("reads a resource after a state-only round", async () => {
    const client = await Client.connect(server, { clock: recordingClock() });
    const result = await client.readResource("notes://1");
    expect(result.contents).toEqual([{ uri: "notes://1", text: "secret notes" }]);
    expect(result.ttlMs).toBe(0);
  });
});

describe("ClientSession: driving the loop yourself", () => {
  it("returns the InputRequiredResult when allowInputRequired is set, and the final result on the retry", async () => {
    const client = await Client.connect(provisioner());
    const first = await client.session.callTool("provision", { name: "db" }, { allowInputRequired: true });
    expect(first.resultType).toBe("input_required");
    if (first.resultType !== "input_required") throw new Error("unreachable");
    const inputResponses = { region: { action: "accept" as const, content: { region: "eu-north-1" } } };
    const second = await client.session.callTool(
      "provision",
      { name: "db" },
      {
        allowInputRequired: true,
        inputResponses,
        ...(first.requestState ? { requestState: first.requestState } : {}),
      },
    );
    expect(second).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Provisioned db in eu-north-1" }],
    });
  });

  it("throws UnexpectedInputRequiredError carrying the result without allowInputRequired", async () => {
    const client = await Client.connect(provisioner());
    const error = await client.session.callTool("provision", { name: "db" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedInputRequiredError);
    expect((error as UnexpectedInputRequiredError).result.requestState).toBe("provision-v1");
  });
});

describe("Client.connect", () => {
  it("discovers the server and reports the negotiated version", async () => {
    const client = await Client.connect(new Server("Named", { version: "9.9.9", instructions: "Be brief." }));
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo).toEqual({ name: "Named", version: "9.9.9" });
    expect(client.instructions).toBe("Be brief.");
  });

  it("validates its options when built", async () => {
    const transport = new InMemoryTransport(provisioner());
    expect(() => new Client(transport, { inputRequiredMaxRounds: -1 })).toThrow(RangeError);
    expect(() => new Client(transport, { elicitationCallback: 5 as never })).toThrow(TypeError);
    expect(() => new Client(transport, { timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new Client(transport, { logger: {} as never })).toThrow(TypeError);
  });

  it("retries discovery once when the server rejects the version it also names as supported", async () => {
    const server = new Server("Flaky", { version: "1.0.0" });
    let rejected = 0;
    const flaky = {
      handle: async (message: JSONRPCRequest | JSONRPCNotification, env: RequestEnvironment) => {
        if ("id" in message && rejected === 0) {
          rejected += 1;
          return errorResponse(
            message.id,
            new McpError(-32022, "Unsupported protocol version", {
              supported: ["2026-07-28"],
              requested: "2026-07-28",
            }),
          );
        }
        return server.handle(message, env);
      },
    };
    const transport = new RecordingTransport(flaky);
    const client = await Client.connect(transport);
    expect(client.serverInfo).toEqual({ name: "Flaky", version: "1.0.0" });
    expect(transport.calls("server/discover")).toHaveLength(2);
  });

  it("gives up when the retried discovery is rejected again", async () => {
    const always = {
      handle: async (message: JSONRPCRequest | JSONRPCNotification) => {
        if (!("id" in message)) return undefined;
        return errorResponse(
          message.id,
          new McpError(-32022, "Unsupported protocol version", { supported: ["2026-07-28"] }),
        );
      },
    };
    const transport = new RecordingTransport(always);
    await expect(Client.connect(transport)).rejects.toMatchObject({ code: -32022 });
    expect(transport.calls("server/discover")).toHaveLength(2);
  });

  it("refuses a target it cannot connect to", async () => {
    await expect(Client.connect(42 as never)).rejects.toBeInstanceOf(TypeError);
    await expect(Client.connect("ftp://example.com")).rejects.toBeInstanceOf(TypeError);
  });
});

describe("notifications", () => {
  it("reports progress and log messages of one request", async () => {
    const server = new Server("s", {
      onCallTool: (ctx) => {
        ctx.sendProgress({ progress: 0.5 });
        ctx.log("info", { step: "half" });
        return { content: [] };
      },
    });
    const client = await Client.connect(server);
    const progress: number[] = [];
    const logs: unknown[] = [];
    await client.callTool(
      "t",
      {},
      { onProgress: (p) => progress.push(p.progress), logLevel: "info", onLog: (m) => logs.push(m.data) },
    );
    expect(progress).toEqual([0.5]);
    expect(logs).toEqual([{ step: "half" }]);
  });

  it("delivers list-changed notifications on a listen stream after its acknowledgement", async () => {
    const server = new Server("s", { onListTools: () => ({ tools: [] }) });
    const client = await Client.connect(server);
    const received: string[] = [];
    let notified!: () => void;
    const gotOne = new Promise<void>((resolve) => {
      notified = resolve;
    });
    const subscription = client.listen({ toolsListChanged: true, promptsListChanged: true }, (n) => {
      received.push(n.method);
      notified();
    });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    server.notifyListChanged("tools");
    await gotOne;
    subscription.close();
    await subscription.closed;
    expect(received).toEqual(["notifications/tools/list_changed"]);
  });
});
