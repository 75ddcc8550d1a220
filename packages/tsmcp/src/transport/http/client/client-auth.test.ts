/**
 * The HTTP client transport's authorization hook, against a real HTTP server on 127.0.0.1 that
 * answers 401 until it sees the right token: the hook's headers on every request (the Node path
 * and a user's `fetch`), a request re-sent once the hook says so and not when it says no, the
 * bound on re-sends, and a hook that throws.
 */
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import { TransportError } from "../../transport.js";
import { HttpClientTransport } from "./client.js";
import { type HttpAuthChallenge, type HttpClientAuth, MAX_AUTH_RETRIES } from "./client-auth.js";

const PING: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: "ping", params: {} };

interface Seen {
  method: string;
  authorization: string | undefined;
}

let server: NodeServer;
let url: string;
let seen: Seen[];
/** How the server answers one request. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;

/** 200 with the ping's result for `Bearer good`, else 401 with a challenge (or `status`). */
function guarded(status = 401) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization === "Bearer good") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }));
      return;
    }
    res.writeHead(status, {
      "www-authenticate": 'Bearer error="insufficient_scope", scope="a b"',
      "dpop-nonce": "n-1",
    });
    res.end();
  };
}

beforeEach(async () => {
  seen = [];
  answer = guarded();
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", authorization: req.headers.authorization });
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A hook that has no token until its first challenge, then `Bearer <token>`. */
function hook(token = "good", again = true) {
  const challenges: HttpAuthChallenge[] = [];
  const headers: string[] = [];
  let current: string | undefined;
  const auth: HttpClientAuth = {
    headers(request): Record<string, string> {
      headers.push(`${request.method} ${request.url.href}`);
      return current === undefined ? {} : { Authorization: `Bearer ${current}` };
    },
    onChallenge(challenge) {
      challenges.push(challenge);
      current = token;
      return again;
    },
  };
  return { auth, challenges, headers };
}

describe("HttpClientTransport with an auth hook", () => {
  for (const via of ["node:http", "fetch"] as const) {
    it(`sends the request again with the hook's headers after a challenge the hook takes (${via})`, async () => {
      const { auth, challenges, headers } = hook();
      const transport = new HttpClientTransport(url, { auth, ...(via === "fetch" ? { fetch } : {}) });
      try {
        expect(await transport.request(PING)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
      } finally {
        await transport.close();
      }
      expect(seen.map((s) => s.authorization)).toEqual([undefined, "Bearer good"]);
      expect(headers).toEqual([`POST ${url}`, `POST ${url}`]);
      expect(challenges).toHaveLength(1);
      const [challenge] = challenges as [HttpAuthChallenge];
      expect(challenge.status).toBe(401);
      expect(challenge.attempt).toBe(0);
      expect(challenge.method).toBe("POST");
      expect(challenge.url.href).toBe(url);
      expect(challenge.header("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="a b"');
      expect(challenge.header("dpop-nonce")).toBe("n-1");
    });
  }

  it("lets a 401 stand when the hook declines, failing the request as any 4xx does", async () => {
    const { auth, challenges } = hook("good", false);
    const transport = new HttpClientTransport(url, { auth });
    const error = await transport.request(PING).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).httpStatus).toBe(401);
    expect(challenges).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });

  it(`re-sends one request at most ${MAX_AUTH_RETRIES} times, whatever the hook says`, async () => {
    const { auth, challenges } = hook("still-bad");
    answer = guarded(403);
    const transport = new HttpClientTransport(url, { auth });
    const error = await transport.request(PING).catch((e: unknown) => e);
    await transport.close();
    expect((error as TransportError).httpStatus).toBe(403);
    expect(MAX_AUTH_RETRIES).toBe(4);
    expect(seen).toHaveLength(MAX_AUTH_RETRIES + 1);
    expect(challenges.map((c) => [c.status, c.attempt])).toEqual([
      [403, 0],
      [403, 1],
      [403, 2],
      [403, 3],
    ]);
  });

  it("fails the request with 'authorization failed' when the hook throws, its error the cause", async () => {
    const cause = new Error("the user said no");
    const transport = new HttpClientTransport(url, {
      auth: {
        headers: () => ({}),
        onChallenge: () => {
          throw cause;
        },
      },
    });
    const error = await transport.request(PING).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toBe("authorization failed: the user said no");
    expect((error as TransportError).httpStatus).toBe(401);
    expect((error as TransportError).cause).toBe(cause);
  });

  it("carries the hook's headers on notifications and replaces a user header of the same name", async () => {
    answer = (_req, res) => {
      res.writeHead(202);
      res.end();
    };
    const transport = new HttpClientTransport(url, {
      headers: { Authorization: "Bearer from-options" },
      auth: { headers: () => ({ authorization: "Bearer from-hook" }), onChallenge: () => false },
    });
    await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    await transport.close();
    expect(seen).toEqual([{ method: "POST", authorization: "Bearer from-hook" }]);
  });

  it("refuses an auth option that is no hook, when built", () => {
    expect(() => new HttpClientTransport(url, { auth: {} as HttpClientAuth })).toThrow(
      new TypeError(
        'HttpClientTransport option "auth" must be an HttpClientAuth (an object with headers() and onChallenge() methods)',
      ),
    );
  });
});
