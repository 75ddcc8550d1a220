/**
 * The frameworks example: each app, on 127.0.0.1, answers a `tools/call` from the tsmcp `Client`,
 * and a browser's preflight.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Client } from "tsmcp/client";
import { describe, expect, it, onTestFinished } from "vitest";
import { PROCESS_LOCAL_KEY_WARNING, stderrOf, warningOfProcessLocalKey } from "../test/helpers/logs.js";
import {
  browserHandler,
  createEchoServer,
  expressApp,
  fastifyApp,
  honoApp,
  nodeServer,
} from "./frameworks.js";

async function listen(server: Server): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

const APPS: { name: string; start: () => Promise<URL> }[] = [
  { name: "Express", start: () => listen(createServer(expressApp(createEchoServer()))) },
  {
    name: "Fastify",
    start: async () => {
      const app = await fastifyApp(createEchoServer());
      await app.listen({ port: 0, host: "127.0.0.1" });
      onTestFinished(async () => {
        app.server.closeAllConnections();
        await app.close();
      });
      return new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`);
    },
  },
  {
    name: "Hono",
    start: () => listen(createServer(getRequestListener(honoApp(createEchoServer()).fetch))),
  },
  { name: "node:http", start: () => listen(nodeServer(createEchoServer())) },
];

describe.each(APPS)("the $name app", ({ start }) => {
  it("serves a tool call to the tsmcp Client", async () => {
    const client = await Client.connect(await warningOfProcessLocalKey(start));
    onTestFinished(() => client.close());
    const result = await client.callTool("echo", { text: "hello" });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
  });

  it("answers a browser's preflight", async () => {
    const response = await fetch(await warningOfProcessLocalKey(start), {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "POST" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });
});

describe("the browser handler", () => {
  /** The handler's answer to a preflight from `origin`, and what it wrote to stderr. */
  const preflight = (origin: string) =>
    stderrOf(() =>
      browserHandler(createEchoServer())(
        new Request("http://localhost/mcp", {
          method: "OPTIONS",
          headers: {
            Origin: origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-trace",
          },
        }),
      ),
    );

  it("lets its one origin call with credentials and the extra header", async () => {
    const { result: response, lines } = await preflight("https://app.example.com");
    expect(lines).toEqual([expect.stringMatching(PROCESS_LOCAL_KEY_WARNING)]);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-allow-headers")).toMatch(/X-Trace/);
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  it("refuses any other origin", async () => {
    const { result: response, lines } = await preflight("https://elsewhere.example.com");
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(lines).toEqual([
      expect.stringMatching(PROCESS_LOCAL_KEY_WARNING),
      '[tsmcp] warn Streamable HTTP refused a request: Origin not allowed (see allowedOrigins) {"origin":"https://elsewhere.example.com"}',
    ]);
  });
});
