/**
 * Requests at the edges of HTTP/1.1 that reach the auth hook or the metadata path: repeated
 * `Authorization` headers, an absolute-form request target, a `Host` that passes `allowedHosts: "*"`
 * but does not make a URL. Every entry answers them alike, and none with a 5xx.
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { Server } from "../../../server/server.js";
import { ENTRIES, type Served } from "../node/entries-test-fixtures.js";
import type { AuthenticateRequest } from "./authenticate.js";

/** Sends raw bytes and resolves with everything the server wrote before closing. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.write(request);
  });
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
}

const server = new Server("edges", { onListTools: () => ({ tools: [] }) });
const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

describe.each(ENTRIES)("HTTP edge cases through $name", ({ start }) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("hands the auth hook every Authorization header, joined as a web Request does", async () => {
    const seen: (string | null)[] = [];
    const logger = recordingLogger();
    served = await start(server, {
      logger,
      authenticate: (request: AuthenticateRequest) => {
        seen.push(request.headers.get("authorization"));
        return new Response(null, { status: 401 });
      },
    });
    const answer = await raw(
      served.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nAuthorization: Bearer alice\r\n` +
        `Authorization: Bearer bob\r\nContent-Type: application/json\r\nConnection: close\r\n` +
        `Content-Length: ${PING.length}\r\n\r\n${PING}`,
    );
    expect(statusOf(answer)).toBe(401);
    expect(seen).toEqual(["Bearer alice, Bearer bob"]);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: "Streamable HTTP refused a request: the authenticate hook answered HTTP 401",
        fields: { status: 401, reason: "the authenticate hook answered HTTP 401" },
      },
    ]);
  });

  it("answers an absolute-form target on the metadata path without a 5xx", async () => {
    served = await start(server);
    const answer = await raw(
      served.port,
      `GET http://127.0.0.1:${served.port}/.well-known/oauth-protected-resource/mcp HTTP/1.1\r\n` +
        `Host: 127.0.0.1:${served.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(answer)).toBe(404);
  });

  it("refuses a Host that makes no URL with 400 before the auth hook, when any host is allowed", async () => {
    let called = false;
    served = await start(server, {
      allowedHosts: "*",
      authenticate: () => {
        called = true;
        return undefined;
      },
    });
    const answer = await raw(
      served.port,
      `POST /mcp HTTP/1.1\r\nHost: a%zz\r\nContent-Type: application/json\r\nConnection: close\r\n` +
        `Content-Length: ${PING.length}\r\n\r\n${PING}`,
    );
    expect(statusOf(answer)).toBe(400);
    expect(called).toBe(false);
  });
});

describe("the Node adapter and a body it will not read", () => {
  it("closes the connection after a 413 instead of reading the rest of the declared body", async () => {
    const { serve } = await import("../node/node.js");
    const handle = await serve(server, { maxBodyBytes: 1024 });
    try {
      // The declared body never comes: the answer must still end the connection.
      const answer = await raw(
        handle.port,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: 100000000\r\n\r\n{"jsonrpc":`,
      );
      expect(statusOf(answer)).toBe(413);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    } finally {
      await handle.close();
    }
  });
});
