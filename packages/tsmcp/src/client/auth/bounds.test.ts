/**
 * What the OAuth client reads from an authorization server or a protected resource is bounded:
 * protected resource metadata, authorization server metadata and token responses larger than
 * `maxResponseBytes` fail with `OAuthResponseTooLargeError` naming the document and the limit; the
 * client stops reading such a body (the server, streaming without end, sees the connection go) and
 * refuses one whose `Content-Length` is over the limit without waiting for it. Scripted servers on
 * 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { ERROR_CODES } from "../../protocol/local-errors.js";
import { HttpClientTransport } from "../../transport/http/client/client.js";
import { TransportError } from "../../transport/transport.js";
import { OAuthResponseTooLargeError } from "./errors.js";
import { DEFAULT_OAUTH_MAX_RESPONSE_BYTES } from "./http.js";
import { OAuthClientProvider, type OAuthClientProviderOptions } from "./provider.js";

const PING: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: "ping", params: {} };
/** What a scripted endpoint streams at most: a client that keeps reading gets all of it. */
const STREAM_LIMIT_BYTES = 64 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "a");

type Oversized = "prm" | "as" | "token";

interface Script {
  /** The endpoint that answers a body without end. */
  endless?: Oversized;
  /** The endpoint that declares a body larger than the limit, then sends nothing. */
  declared?: Oversized;
  /** Bytes the endless endpoint wrote before the connection went. */
  written: number;
  /** Resolves when the client closes the oversized answer's connection. */
  hungUp: Promise<void>;
}

let server: Server;
let origin: string;
let script: Script;
let hangUp: () => void;

function json(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Streams `{"pad":"aaaa...` until the client goes or STREAM_LIMIT_BYTES are written. */
function streamEndless(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"pad":"');
  const pump = () => {
    while (!res.destroyed && script.written < STREAM_LIMIT_BYTES) {
      script.written += CHUNK.byteLength;
      if (!res.write(CHUNK)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end('"}');
  };
  pump();
}

/** Answers the oversized endpoint's way, or the usual document. */
function answer(which: Oversized, res: ServerResponse, body: Record<string, unknown>): void {
  if (script.endless === which) {
    res.on("close", hangUp);
    streamEndless(res);
    return;
  }
  if (script.declared === which) {
    res.on("close", hangUp);
    res.writeHead(200, { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) });
    // The header goes out now; the body never comes.
    return void res.flushHeaders();
  }
  json(res, body);
}

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", origin);
  switch (url.pathname) {
    case "/mcp":
      if (req.headers.authorization === "Bearer at-1") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }));
      }
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` });
      return void res.end();
    case "/prm":
      return void answer("prm", res, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    case "/.well-known/oauth-authorization-server":
      return void answer("as", res, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    case "/token":
      return void answer("token", res, { access_token: "at-1", token_type: "Bearer", expires_in: 3600 });
    default:
      res.writeHead(404).end();
  }
}

beforeEach(async () => {
  script = {
    written: 0,
    hungUp: new Promise<void>((resolve) => {
      hangUp = resolve;
    }),
  };
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => route(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The user's step without a person: back to the redirect URI with a code and the state. */
function redirect(url: URL): string {
  const back = new URL(url.searchParams.get("redirect_uri") as string);
  back.searchParams.set("code", "code-1");
  back.searchParams.set("state", url.searchParams.get("state") as string);
  return back.href;
}

function provider(options: Partial<OAuthClientProviderOptions> = {}): OAuthClientProvider {
  return new OAuthClientProvider({
    redirectUri: "http://127.0.0.1:8765/callback",
    redirect,
    client: { clientId: "pre-registered" },
    ...options,
  });
}

/** Pings `/mcp` with `auth`; resolves the response or the error. */
async function ping(auth: OAuthClientProvider): Promise<unknown> {
  const transport = new HttpClientTransport(`${origin}/mcp`, { auth });
  try {
    return await transport.request(PING);
  } catch (error) {
    return error;
  } finally {
    await transport.close();
  }
}

/** The `OAuthResponseTooLargeError` an authorization failure carries. */
function tooLarge(error: unknown): OAuthResponseTooLargeError {
  expect(error).toBeInstanceOf(TransportError);
  const cause = (error as TransportError).cause;
  expect(cause).toBeInstanceOf(OAuthResponseTooLargeError);
  return cause as OAuthResponseTooLargeError;
}

describe("the OAuth client's response bounds", () => {
  it("works within the bound: the same servers authorize when nothing is oversized", async () => {
    expect(await ping(provider({ maxResponseBytes: 4096 }))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it.each([
    ["prm", "protected resource metadata", "/prm"],
    ["as", "authorization server metadata", "/.well-known/oauth-authorization-server"],
    ["token", "token response", "/token"],
  ] as const)(
    "stops reading endless %s and names the document and the limit",
    async (which, document, path) => {
      script.endless = which;
      const error = tooLarge(await ping(provider({ maxResponseBytes: 4096 })));
      expect(error.code).toBe(ERROR_CODES.OAuthResponseTooLargeError);
      expect(error.document).toBe(document);
      expect(error.maxBytes).toBe(4096);
      expect(error.url).toBe(`${origin}${path}`);
      expect(error.message).toBe(
        `the ${document} from ${origin}${path} exceeds maxResponseBytes (4096 bytes)`,
      );
      // The client hung up long before the endpoint could write what it had.
      await script.hungUp;
      expect(script.written).toBeLessThan(STREAM_LIMIT_BYTES);
    },
  );

  it.each([
    ["as", "authorization server metadata"],
    ["token", "token response"],
  ] as const)(
    "refuses %s whose Content-Length is over the bound without waiting for its body",
    async (which, document) => {
      script.declared = which;
      const error = tooLarge(await ping(provider()));
      expect(error.document).toBe(document);
      expect(error.maxBytes).toBe(DEFAULT_OAUTH_MAX_RESPONSE_BYTES);
      await script.hungUp;
    },
  );

  it("pins the default bound at 1 MiB and checks the option when built", () => {
    expect(DEFAULT_OAUTH_MAX_RESPONSE_BYTES).toBe(1024 * 1024);
    expect(() => provider({ maxResponseBytes: 0 })).toThrow(RangeError);
    expect(() => provider({ maxResponseBytes: 1.5 })).toThrow(RangeError);
    expect(() => provider({ maxResponseBytes: "big" as never })).toThrow(TypeError);
  });
});
