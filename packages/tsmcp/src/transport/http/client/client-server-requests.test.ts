/**
 * `HttpClientTransport` answering a flood of server -> client requests on a 2025-era session: at
 * most `maxConcurrentServerRequests` handlers run at once and the rest are refused at once, against
 * a `node:http` server on 127.0.0.1 that writes every request on the POST's SSE stream in one burst.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import type { JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS, HttpClientTransport } from "./client.js";

/** A server that floods `count` elicitations on the stream of the request it is sent. */
async function floodServer(count: number, onAnswer: (answers: JSONRPCResponse[]) => void) {
  const answers: JSONRPCResponse[] = [];
  let stream: { res: ServerResponse; id: unknown } | undefined;
  const server = createServer(async (req, res) => {
    if (req.method === "GET") return void res.writeHead(405).end();
    if (req.method === "DELETE") return void res.writeHead(200).end();
    let body = "";
    for await (const chunk of req) body += chunk;
    const message = JSON.parse(body);
    if (message.method === "initialize") {
      const result = {
        protocolVersion: "2025-11-25",
        capabilities: {},
        serverInfo: { name: "f", version: "1" },
      };
      res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s-1" });
      return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (message.method === undefined) {
      answers.push(message);
      res.writeHead(202).end();
      onAnswer(answers);
      if (answers.length === count && stream !== undefined) {
        const done = { jsonrpc: "2.0", id: stream.id, result: { content: [] } };
        stream.res.end(`event: message\ndata: ${JSON.stringify(done)}\n\n`);
      }
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    stream = { res, id: message.id };
    let events = "";
    for (let i = 0; i < count; i++) {
      const elicit = {
        jsonrpc: "2.0",
        id: `e${i}`,
        method: "elicitation/create",
        params: { message: "Region?", requestedSchema: { type: "object", properties: {} } },
      };
      events += `event: message\ndata: ${JSON.stringify(elicit)}\n\n`;
    }
    res.write(events);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, answers };
}

describe("HttpClientTransport bounding the server's concurrent requests", () => {
  it("defaults to 16 and refuses maxConcurrentServerRequests that is not a positive integer", () => {
    expect(DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS).toBe(16);
    for (const bad of [0, -3, 2.5]) {
      expect(
        () => new HttpClientTransport("http://127.0.0.1:1/mcp", { maxConcurrentServerRequests: bad }),
      ).toThrow(
        new RangeError(
          `HttpClientTransport option "maxConcurrentServerRequests" must be an integer >= 1, got ${bad}`,
        ),
      );
    }
    expect(
      () =>
        new HttpClientTransport("http://127.0.0.1:1/mcp", {
          maxConcurrentServerRequests: null as unknown as number,
        }),
    ).toThrow(TypeError);
  });

  it("runs at most the bound of handlers and answers the overflow -32600 without calling onRequest", async () => {
    const count = 30;
    const limit = 3;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { url, answers } = await floodServer(count, (received) => {
      // Every refusal reached the server while the admitted handlers still wait.
      if (received.length === count - limit) release();
    });
    const transport = new HttpClientTransport(url, { maxConcurrentServerRequests: limit });
    onTestFinished(() => transport.close());
    let running = 0;
    let peak = 0;
    let calls = 0;
    transport.onRequest = async () => {
      calls++;
      running++;
      peak = Math.max(peak, running);
      await gate;
      running--;
      return { action: "decline" };
    };
    await transport.request({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} });
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    const response = await transport.request({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "x" },
    });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    expect(peak).toBe(limit);
    expect(calls).toBe(limit);
    const refused = answers.filter((answer) => "error" in answer);
    expect(refused).toHaveLength(count - limit);
    for (const answer of refused) {
      expect(answer).toMatchObject({
        error: { code: -32600, message: `Too many concurrent requests from the server (limit ${limit})` },
      });
    }
    const declined = answers.filter((answer) => "result" in answer);
    expect(declined.map((answer) => answer.id)).toEqual(["e0", "e1", "e2"]);
  });
});
