/**
 * The era negotiation of `Client.connect`: outcomes against a real `Server` in memory (alone, and
 * behind a gate that makes it a handshake-only server), and the probe policy's edges against a
 * transport whose answers are scripted per method.
 */
import { describe, expect, it } from "vitest";
import { McpError } from "../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  resultResponse,
} from "../protocol/jsonrpc.js";
import { Server } from "../server/server.js";
import type { Dispatcher } from "../transport/dispatcher.js";
import { InMemoryTransport } from "../transport/memory.js";
import { type ProtocolEra, type Transport, TransportError } from "../transport/transport.js";
import { Client } from "./client.js";
import { ProtocolNegotiationError } from "./errors.js";
import { DISCOVER_PROBE_TIMEOUT_MS, negotiate } from "./negotiate.js";
import type { ClientSession } from "./session.js";

const INITIALIZE_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {} },
  serverInfo: { name: "old-server", version: "1.0.0" },
};
const DISCOVER_RESULT = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "new-server", version: "2.0.0" } },
};

type Answer = Record<string, unknown> | McpError | Error | "hang";

/** A transport that answers each method from a script (a list consumed in order, the last repeated). */
class ScriptedTransport implements Transport {
  readonly sendsHttpHeaders = false;
  readonly sent: JSONRPCRequest[] = [];
  readonly notified: JSONRPCNotification[] = [];
  readonly eras: ProtocolEra[] = [];
  readonly #script: Record<string, Answer[]>;
  constructor(script: Record<string, Answer[]>) {
    this.#script = script;
  }
  async request(request: JSONRPCRequest, options?: { signal?: AbortSignal }): Promise<JSONRPCResponse> {
    this.sent.push(structuredClone(request));
    const answers = this.#script[request.method] ?? [McpError.of("METHOD_NOT_FOUND", "Method not found")];
    const answer = answers.length > 1 ? answers.shift() : answers[0];
    if (answer === "hang") {
      return new Promise((_, reject) =>
        options?.signal?.addEventListener("abort", () => reject(options.signal?.reason)),
      );
    }
    if (answer instanceof McpError) return errorResponse(request.id, answer);
    if (answer instanceof Error || answer === undefined) throw answer;
    return resultResponse(request.id, answer);
  }
  async notify(notification: JSONRPCNotification): Promise<void> {
    this.notified.push(notification);
  }
  setProtocolEra(era: ProtocolEra): void {
    this.eras.push(era);
  }
  async close(): Promise<void> {}
  methods(): string[] {
    return this.sent.map((request) => request.method);
  }
}

function unsupported(supported: unknown): McpError {
  return McpError.of("UNSUPPORTED_PROTOCOL_VERSION", "Unsupported protocol version", {
    supported,
    requested: "2026-07-28",
  });
}

function greeter(): Server {
  return new Server("greeter", {
    version: "3.0.0",
    onListTools: () => ({ tools: [{ name: "greet", inputSchema: { type: "object" } }] }),
    onCallTool: () => ({ content: [{ type: "text", text: "hello" }] }),
  });
}

/** The real server as a handshake-only peer: a 2026-07-28 request (no session) gets -32601. */
function handshakeOnly(server: Server): Dispatcher {
  return {
    handle: (message, env) =>
      env.session === undefined && "id" in message
        ? Promise.resolve(errorResponse(message.id, McpError.of("METHOD_NOT_FOUND", "Method not found")))
        : server.handle(message, env),
  };
}

describe("Client.connect against real servers", () => {
  it("auto mode probes discover then adopts 2026-07-28", async () => {
    const client = await Client.connect(greeter());
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.era).toBe("modern");
    expect(client.serverInfo).toEqual({ name: "greeter", version: "3.0.0" });
  });

  it("auto mode falls back to initialize on a handshake-only server and speaks 2025-11-25", async () => {
    const client = await Client.connect(new InMemoryTransport(handshakeOnly(greeter())));
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.era).toBe("legacy");
    expect(client.serverInfo).toEqual({ name: "greeter", version: "3.0.0" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greet"]);
    expect((await client.callTool("greet")).content).toEqual([{ type: "text", text: "hello" }]);
  });

  it("legacy mode always handshakes, even with a server that speaks 2026-07-28", async () => {
    const client = await Client.connect(greeter(), { protocolVersion: "legacy" });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.era).toBe("legacy");
    expect((await client.callTool("greet")).content).toEqual([{ type: "text", text: "hello" }]);
  });

  it("pinned 2026-07-28 mode never handshakes, so a handshake-only server's refusal surfaces", async () => {
    await expect(
      Client.connect(new InMemoryTransport(handshakeOnly(greeter())), { protocolVersion: "2026-07-28" }),
    ).rejects.toMatchObject({ name: "McpError", code: -32601 });
  });
});

describe("the options that pick the era", () => {
  it("rejects a handshake-era version as the mode, with a hint to use legacy", async () => {
    await expect(Client.connect(greeter(), { protocolVersion: "2025-06-18" as "legacy" })).rejects.toThrow(
      /2025-06-18 is a handshake-era version: use protocolVersion: "legacy"/,
    );
  });

  it("rejects a garbage mode", async () => {
    await expect(Client.connect(greeter(), { protocolVersion: "newest" as "auto" })).rejects.toThrow(
      /must be "auto", "2026-07-28" or "legacy", got "newest"/,
    );
  });

  it("a saved discover result is adopted without a probe", async () => {
    const transport = new ScriptedTransport({});
    const client = await Client.connect(transport, { discoverResult: DISCOVER_RESULT });
    expect(transport.sent).toEqual([]);
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo).toEqual({ name: "new-server", version: "2.0.0" });
  });

  it("discover: false adopts 2026-07-28 without a probe", async () => {
    const transport = new ScriptedTransport({});
    const client = await Client.connect(transport, { discover: false });
    expect(transport.sent).toEqual([]);
    expect(client.protocolVersion).toBe("2026-07-28");
  });
});

describe("the auto probe", () => {
  it("waits probeTimeoutMs when given (the whole timeout, with authorization), else at most 10 s", async () => {
    const asked: unknown[] = [];
    const session = {
      discover: async (options: unknown) => {
        asked.push(options);
        return { supportedVersions: ["2026-07-28"] };
      },
      adopt: () => {},
    } as unknown as ClientSession;
    await negotiate(session, { mode: "auto", discover: true, timeoutMs: 300_000, probeTimeoutMs: 300_000 });
    await negotiate(session, { mode: "auto", discover: true, timeoutMs: 300_000 });
    expect(asked).toEqual([{ timeoutMs: 300_000 }, { timeoutMs: DISCOVER_PROBE_TIMEOUT_MS }]);
    expect(DISCOVER_PROBE_TIMEOUT_MS).toBe(10_000);
  });

  it("a valid discover result is adopted without initializing", async () => {
    const transport = new ScriptedTransport({ "server/discover": [DISCOVER_RESULT] });
    const client = await Client.connect(transport);
    expect(transport.methods()).toEqual(["server/discover"]);
    expect(client.era).toBe("modern");
  });

  it("an unparseable discover result falls back to initialize", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [{ nonsense: true }],
      initialize: [INITIALIZE_RESULT],
    });
    const client = await Client.connect(transport);
    expect(transport.methods()).toEqual(["server/discover", "initialize"]);
    expect(client.protocolVersion).toBe("2025-11-25");
  });

  it("a discover result advertising only legacy versions falls back to initialize", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [{ ...DISCOVER_RESULT, supportedVersions: ["2025-11-25"] }],
      initialize: [INITIALIZE_RESULT],
    });
    const client = await Client.connect(transport);
    expect(transport.methods()).toEqual(["server/discover", "initialize"]);
    expect(client.era).toBe("legacy");
    expect(client.serverInfo).toEqual(INITIALIZE_RESULT.serverInfo);
  });

  for (const kind of [
    "METHOD_NOT_FOUND",
    "INVALID_REQUEST",
    "INTERNAL_ERROR",
    "PARSE_ERROR",
    "REQUEST_TIMEOUT",
  ] as const) {
    it(`any JSON-RPC error from the probe falls back to initialize (${McpError.of(kind, "").code})`, async () => {
      const transport = new ScriptedTransport({
        "server/discover": [McpError.of(kind, "no")],
        initialize: [INITIALIZE_RESULT],
      });
      const client = await Client.connect(transport);
      expect(transport.methods()).toEqual(["server/discover", "initialize"]);
      expect(client.era).toBe("legacy");
    });
  }

  for (const status of [400, 404, 405]) {
    it(`an HTTP ${status} without a JSON-RPC body falls back to initialize`, async () => {
      const transport = new ScriptedTransport({
        "server/discover": [new TransportError(`HTTP ${status}`, { httpStatus: status })],
        initialize: [INITIALIZE_RESULT],
      });
      const client = await Client.connect(transport);
      expect(client.era).toBe("legacy");
    });
  }

  it("a timed-out probe falls back to initialize", async () => {
    const transport = new ScriptedTransport({ "server/discover": ["hang"], initialize: [INITIALIZE_RESULT] });
    const client = await Client.connect(transport, { timeoutMs: 30 });
    expect(transport.methods()).toEqual(["server/discover", "initialize"]);
    expect(client.era).toBe("legacy");
  });

  it("unsupported version with a mutual modern version retries once then adopts", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [unsupported(["2026-07-28"]), DISCOVER_RESULT],
    });
    const client = await Client.connect(transport);
    expect(transport.methods()).toEqual(["server/discover", "server/discover"]);
    expect(client.protocolVersion).toBe("2026-07-28");
  });

  it("unsupported version naming only handshake versions falls back to initialize", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [unsupported(["2025-11-25", "2025-06-18"])],
      initialize: [INITIALIZE_RESULT],
    });
    const client = await Client.connect(transport);
    expect(transport.methods()).toEqual(["server/discover", "initialize"]);
    expect(client.era).toBe("legacy");
  });

  it("unsupported version with disjoint modern-only versions fails naming what the server offered", async () => {
    const transport = new ScriptedTransport({ "server/discover": [unsupported(["2027-01-01"])] });
    const error = await Client.connect(transport).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolNegotiationError);
    expect((error as ProtocolNegotiationError).offered).toEqual(["2027-01-01"]);
    expect((error as Error).message).toMatch(
      /it offered 2027-01-01; this client speaks 2026-07-28, 2025-11-25/,
    );
    expect(transport.methods()).toEqual(["server/discover"]);
  });

  it("unsupported version with unparseable data falls back to initialize", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [unsupported("not a list")],
      initialize: [INITIALIZE_RESULT],
    });
    const client = await Client.connect(transport);
    expect(client.era).toBe("legacy");
  });

  it("a second unsupported version after the corrective retry does not loop", async () => {
    const transport = new ScriptedTransport({ "server/discover": [unsupported(["2026-07-28"])] });
    await expect(Client.connect(transport)).rejects.toMatchObject({ code: -32022 });
    expect(transport.methods()).toEqual(["server/discover", "server/discover"]);
  });

  it("a handshake refused as unsupported after a timed-out probe probes again and adopts", async () => {
    const transport = new ScriptedTransport({
      "server/discover": ["hang", DISCOVER_RESULT],
      initialize: [unsupported(["2026-07-28"])],
    });
    const client = await Client.connect(transport, { timeoutMs: 30 });
    expect(transport.methods()).toEqual(["server/discover", "initialize", "server/discover"]);
    expect(client.era).toBe("modern");
  });

  it("a handshake refused as unsupported without a mutual version fails naming what the server offered", async () => {
    const transport = new ScriptedTransport({
      "server/discover": [McpError.of("METHOD_NOT_FOUND", "no")],
      initialize: [unsupported(["2024-01-01"])],
    });
    const error = await Client.connect(transport).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolNegotiationError);
    expect((error as Error).message).toMatch(/it offered 2024-01-01/);
    expect((error as Error).cause).toMatchObject({ code: -32022 });
  });

  it("a handshake refused as unsupported probes again at most once", async () => {
    const transport = new ScriptedTransport({
      "server/discover": ["hang", McpError.of("METHOD_NOT_FOUND", "no")],
      initialize: [unsupported(["2026-07-28"])],
    });
    await expect(Client.connect(transport, { timeoutMs: 30 })).rejects.toMatchObject({ code: -32601 });
    expect(transport.methods()).toEqual(["server/discover", "initialize", "server/discover"]);
  });

  it("any other handshake error propagates unchanged", async () => {
    const refusal = McpError.of("INVALID_PARAMS", "bad clientInfo");
    const transport = new ScriptedTransport({
      "server/discover": [McpError.of("METHOD_NOT_FOUND", "no")],
      initialize: [refusal],
    });
    await expect(Client.connect(transport)).rejects.toMatchObject({
      code: -32602,
      message: "bad clientInfo",
    });
  });

  it("a network error from the probe propagates unchanged", async () => {
    const refused = new TransportError("connection refused to http://127.0.0.1:1/mcp");
    const transport = new ScriptedTransport({ "server/discover": [refused] });
    await expect(Client.connect(transport)).rejects.toBe(refused);
    expect(transport.methods()).toEqual(["server/discover"]);
  });

  it("a server that answers initialize with a version this client does not speak fails naming it", async () => {
    const transport = new ScriptedTransport({
      initialize: [{ ...INITIALIZE_RESULT, protocolVersion: "2023-01-01" }],
    });
    await expect(Client.connect(transport)).rejects.toThrow(ProtocolNegotiationError);
    await expect(
      Client.connect(
        new ScriptedTransport({ initialize: [{ ...INITIALIZE_RESULT, protocolVersion: "2023-01-01" }] }),
      ),
    ).rejects.toThrow(/"2023-01-01"; this client speaks 2026-07-28, 2025-11-25/);
  });

  it("the handshake sends the capabilities and clientInfo, switches the transport, then says initialized", async () => {
    const transport = new ScriptedTransport({ initialize: [INITIALIZE_RESULT] });
    await Client.connect(transport, {
      protocolVersion: "legacy",
      clientInfo: { name: "me", version: "1" },
      elicitationCallback: () => ({ action: "decline" }),
      listRootsCallback: () => ({ roots: [] }),
    });
    expect(transport.sent[0]?.params).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
      clientInfo: { name: "me", version: "1" },
    });
    expect(transport.eras).toEqual([{ kind: "legacy", protocolVersion: "2025-11-25" }]);
    expect(transport.notified).toEqual([{ jsonrpc: "2.0", method: "notifications/initialized" }]);
  });
});
