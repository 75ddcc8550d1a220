/**
 * `HttpClientTransport` on a 2025-era session, driven directly, against the official 1.x server
 * (`McpServer` with a stateful `StreamableHTTPServerTransport` per session) on 127.0.0.1: the
 * id-null JSON-RPC error bodies it sends for transport-level refusals, the session id and
 * protocol version headers, server requests on the POST stream and on the GET stream answered
 * through `onRequest`, 404 as `SessionExpiredError`, and DELETE on close.
 */
import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpError } from "../../../protocol/errors.js";
import type { JSONRPCRequest, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { SessionExpiredError } from "../../transport.js";
import { HttpClientTransport } from "./client.js";

function request(id: number | string, method: string, params?: Record<string, unknown>): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}

async function initialize(transport: HttpClientTransport): Promise<JSONRPCResponse> {
  const response = await transport.request(
    request("init", "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {}, roots: {} },
      clientInfo: { name: "raw", version: "1" },
    }),
  );
  if (!("result" in response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
  transport.setProtocolEra({ kind: "legacy", protocolVersion: String(response.result.protocolVersion) });
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
  return response;
}

function textOf(response: JSONRPCResponse): string {
  if (!("result" in response)) throw new Error(`error response: ${JSON.stringify(response)}`);
  return (response.result.content as { text: string }[]).map((part) => part.text).join("");
}

/** One official 1.x session: its transport and the McpServer connected to it. */
interface V1Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
}

function createV1Server(): McpServer {
  const server = new McpServer({ name: "sdk-v1", version: "1.0.0" });
  server.registerTool("ask", { description: "Asks the user's name" }, async () => {
    const answer = await server.server.elicitInput({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
  });
  return server;
}

/** The routing of the official examples: initialize mints a session; other requests go to theirs. */
async function serveV1(sessions: Map<string, V1Session>): Promise<{ server: NodeServer; url: URL }> {
  const refuse = (res: ServerResponse, status: number, code: number, message: string) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) return refuse(res, 404, -32001, "Session not found");
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || body?.method !== "initialize") {
      return refuse(res, 400, -32000, "Bad Request: No valid session ID provided");
    }
    const server = createV1Server();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => refuse(res, 500, -32603, "Internal error"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

describe("HttpClientTransport on a 2025-era session against the official 1.x server", () => {
  let sessions: Map<string, V1Session>;
  let peer: { server: NodeServer; url: URL };
  let transport: HttpClientTransport;
  const methods: string[] = [];

  beforeEach(async () => {
    sessions = new Map();
    peer = await serveV1(sessions);
    methods.length = 0;
    transport = new HttpClientTransport(peer.url, {
      reconnectDelayMs: 50,
      fetch: (input, init) => {
        methods.push(init?.method ?? "GET");
        return fetch(input, init);
      },
    });
  });

  afterEach(async () => {
    await transport.close();
    for (const session of sessions.values()) await session.server.close();
    await new Promise<void>((resolve) => {
      peer.server.close(() => resolve());
      peer.server.closeAllConnections();
    });
  });

  it("keeps the session the 1.x server mints and is served on it", async () => {
    const init = await initialize(transport);
    expect(init).toMatchObject({ result: { protocolVersion: "2025-11-25", serverInfo: { name: "sdk-v1" } } });
    expect(sessions.has(transport.sessionId as string)).toBe(true);
    expect(await transport.request(request(2, "tools/list"))).toMatchObject({
      id: 2,
      result: { tools: [{ name: "ask" }] },
    });
  });

  it("turns the id-null 400 of an unsupported MCP-Protocol-Version into an McpError naming the supported versions", async () => {
    await initialize(transport);
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "1999-01-01" });
    const failure = await transport.request(request(3, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32000, httpStatus: 400 });
    expect((failure as McpError).message).toMatch(
      /Unsupported protocol version: 1999-01-01 \(supported versions: .*2025-11-25/,
    );
  });

  it("turns the id-null 400 for a request without a session into an McpError with status 400", async () => {
    const failure = await transport.request(request(4, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: -32000,
      message: "Bad Request: No valid session ID provided",
      httpStatus: 400,
    });
  });

  it("answers the elicitation a 1.x tool sends on the POST stream through onRequest", async () => {
    await initialize(transport);
    transport.onRequest = async (incoming) => {
      expect(incoming.method).toBe("elicitation/create");
      return { action: "accept", content: { name: "Grace" } };
    };
    expect(textOf(await transport.request(request(5, "tools/call", { name: "ask", arguments: {} })))).toBe(
      "hello Grace",
    );
  });

  it("answers a roots/list the 1.x server sends outside any request, on the GET stream", async () => {
    await initialize(transport);
    transport.onRequest = async (incoming) => {
      expect(incoming.method).toBe("roots/list");
      return { roots: [{ uri: "file:///work", name: "work" }] };
    };
    const session = sessions.get(transport.sessionId as string) as V1Session;
    // The 1.x server drops a message sent before the GET stream is open: ask until it is.
    await expect
      .poll(
        async () => {
          try {
            return (await session.server.server.listRoots(undefined, { timeout: 200 })).roots;
          } catch {
            return undefined;
          }
        },
        { timeout: 5000, interval: 50 },
      )
      .toEqual([{ uri: "file:///work", name: "work" }]);
    expect(methods).toContain("GET");
  });

  it("rejects with SessionExpiredError on the 404 once the session is gone", async () => {
    await initialize(transport);
    const session = sessions.get(transport.sessionId as string) as V1Session;
    sessions.delete(transport.sessionId as string);
    await session.server.close();
    const failure = await transport.request(request(6, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SessionExpiredError);
    expect((failure as SessionExpiredError).httpStatus).toBe(404);
  });

  it("sends DELETE on close, which ends the 1.x session", async () => {
    await initialize(transport);
    const sessionId = transport.sessionId as string;
    await transport.close();
    expect(methods.at(-1)).toBe("DELETE");
    expect(sessions.has(sessionId)).toBe(false);
  });
});
