/**
 * Every constructor and factory checks its options when the object is built: an option of the
 * wrong type throws a TypeError (a value out of range a RangeError) naming the option, never a
 * failure at the first request.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Client } from "../packages/tsmcp/src/client/client.js";
import { ClientSession } from "../packages/tsmcp/src/client/session.js";
import { silentLogger } from "../packages/tsmcp/src/protocol/logger.js";
import { MCPServer } from "../packages/tsmcp/src/server/mcp/server.js";
import { Server } from "../packages/tsmcp/src/server/server.js";
import { HttpClientTransport } from "../packages/tsmcp/src/transport/http/client/client.js";
import { serve } from "../packages/tsmcp/src/transport/http/node/node.js";
import { createHttpHandler } from "../packages/tsmcp/src/transport/http/server/server-handler.js";
import { InMemoryTransport } from "../packages/tsmcp/src/transport/memory.js";
import { StdioClientTransport } from "../packages/tsmcp/src/transport/stdio/client.js";
import { serveStdio } from "../packages/tsmcp/src/transport/stdio/server.js";

type Row = readonly [option: string, value: unknown, error: typeof TypeError | typeof RangeError];

const server = new Server("s", { logger: silentLogger });
const transport = new InMemoryTransport(server);

/** The rows shared by `Server` and `MCPServer`. */
const SERVER_ROWS: Row[] = [
  ["version", 42, TypeError],
  ["info", "x", TypeError],
  ["info.title", { title: 1 }, TypeError],
  ["info.icons", { icons: "x" }, TypeError],
  ["instructions", false, TypeError],
  ["cache", 5, TypeError],
  ["cache.ttlMs", { ttlMs: "5" }, TypeError],
  ["cache.ttlMs", { ttlMs: -1 }, RangeError],
  ["cache.cacheScope", { cacheScope: "everyone" }, RangeError],
  ["cache.methods", { methods: [] }, TypeError],
  ['cache.methods["tools/call"]', { methods: { "tools/call": { ttlMs: 1 } } }, RangeError],
  ['cache.methods["tools/list"]', { methods: { "tools/list": 3 } }, TypeError],
  ["logger", {}, TypeError],
  ["logger", { debug() {}, info() {}, warn() {} }, TypeError],
];

/** Options for the row: the value itself, or nested under its first segment for `a.b` names. */
function optionsFor(option: string, value: unknown): Record<string, unknown> {
  const top = option.split(/[.[]/)[0] as string;
  return { [top]: value };
}

interface Entry {
  /** Builds the object with these options (over any it needs). */
  build: (options: Record<string, unknown>) => unknown;
  /** Builds it with `options` as the whole options argument; default `build`. */
  buildRaw?: (options: unknown) => unknown;
  rows: Row[];
}

const TABLE: Record<string, Entry> = {
  Server: {
    build: (options) => new Server("s", options),
    rows: [
      ...SERVER_ROWS,
      ["capabilities", "all", TypeError],
      ["stampServerInfo", "yes", TypeError],
      ["onCallTool", "nope", TypeError],
      ["onListTools", 1, TypeError],
    ],
  },
  MCPServer: {
    build: (options) => new MCPServer("s", options),
    rows: [
      ...SERVER_ROWS,
      ["pageSize", "10", TypeError],
      ["pageSize", 0, RangeError],
      ["requestStateSecurity", {}, TypeError],
      ["maxInvalidAnswerRetries", "2", TypeError],
      ["maxInvalidAnswerRetries", -1, RangeError],
      ["maxInvalidAnswerRetries", 101, RangeError],
    ],
  },
  Client: {
    build: (options) => new Client(transport, options),
    rows: [
      ["clientInfo", { name: "c" }, TypeError],
      ["capabilities", "all", TypeError],
      ["inputRequiredMaxRounds", "3", TypeError],
      ["inputRequiredMaxRounds", -1, RangeError],
      ["inputRequestsMaxPerRound", "64", TypeError],
      ["inputRequestsMaxPerRound", 0, RangeError],
      ["inputRequestConcurrency", 1.5, RangeError],
      ["inputRequestConcurrency", 0, RangeError],
      ["timeoutMs", "1000", TypeError],
      ["timeoutMs", 0, RangeError],
      ["discover", "no", TypeError],
      ["clock", {}, TypeError],
      ["clock", { now: () => 0 }, TypeError],
      ["logger", {}, TypeError],
      ["elicitationCallback", 5, TypeError],
      ["samplingCallback", {}, TypeError],
      ["listRootsCallback", "x", TypeError],
    ],
  },
  ClientSession: {
    build: (options) => new ClientSession(transport, options),
    rows: [
      ["clientInfo", true, TypeError],
      ["capabilities", 1, TypeError],
      ["protocolVersion", 20260728, TypeError],
      ["timeoutMs", Number.NaN, RangeError],
      ["mirrorParamHeaders", "yes", TypeError],
      ["logger", { error() {} }, TypeError],
    ],
  },
  HttpClientTransport: {
    build: (options) => new HttpClientTransport("http://127.0.0.1/mcp", options),
    rows: [
      ["headers", "Authorization: x", TypeError],
      ["fetch", "fetch", TypeError],
      ["maxResponseBytes", "1", TypeError],
      ["maxResponseBytes", 0, RangeError],
    ],
  },
  StdioClientTransport: {
    build: (options) => new StdioClientTransport({ command: "node", ...options }),
    buildRaw: (options) => new StdioClientTransport(options as never),
    rows: [
      ["command", "", TypeError],
      ["args", "a b", TypeError],
      ["env", { A: 1 }, TypeError],
      ["cwd", 3, TypeError],
      ["stderr", "file", TypeError],
      ["closeGracePeriodMs", "1", TypeError],
      ["closeGracePeriodMs", -1, RangeError],
      ["terminateGracePeriodMs", 0.5, RangeError],
      ["maxLineBytes", 0, RangeError],
    ],
  },
  createHttpHandler: {
    build: (options) => createHttpHandler(server, options),
    rows: [
      ["maxBodyBytes", "1", TypeError],
      ["maxBodyBytes", 0, RangeError],
      ["keepAliveMs", "1", TypeError],
      ["keepAliveMs", -1, RangeError],
      ["logger", {}, TypeError],
      ["allowedHosts", "localhost", TypeError],
      ["allowedOrigins", 3, TypeError],
    ],
  },
  serve: {
    build: (options) => serve(server, options),
    rows: [
      ["host", 1, TypeError],
      ["port", "80", TypeError],
      ["port", 70_000, RangeError],
      ["path", "mcp", TypeError],
      ["maxBodyBytes", 0, RangeError],
      ["logger", { warn() {} }, TypeError],
    ],
  },
  serveStdio: {
    build: (options) =>
      serveStdio(server, { stdin: new PassThrough(), stdout: new PassThrough(), ...options }),
    buildRaw: (options) => serveStdio(server, options as never),
    rows: [
      ["stdin", {}, TypeError],
      ["stdout", "out", TypeError],
      ["logger", { debug() {}, warn() {} }, TypeError],
      ["maxLineBytes", "1", TypeError],
      ["maxLineBytes", 0, RangeError],
    ],
  },
};

describe.each(Object.entries(TABLE))(
  "%s",
  (_owner, { build, buildRaw = build as (options: unknown) => unknown, rows }) => {
    it.each(rows)("refuses a wrong %s (%j) when built, naming it", (option, value, errorClass) => {
      const options =
        option.includes(".") || option.includes("[") ? optionsFor(option, value) : { [option]: value };
      let thrown: unknown;
      try {
        build(options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(errorClass);
      expect((thrown as Error).message).toContain(option);
    });

    it("refuses options that are not an object", () => {
      expect(() => buildRaw("options")).toThrow(TypeError);
    });
  },
);

describe("the option errors", () => {
  it("say which constructor and which option, in one form", () => {
    expect(() => new Server("x", { version: 42 as never })).toThrow(
      new TypeError('Server option "version" must be a string'),
    );
    expect(() => new Server("x", { logger: {} as never })).toThrow(
      new TypeError('Server option "logger" must have debug, info, warn and error methods'),
    );
    expect(() => new Client(transport, { logger: {} as never })).toThrow(
      new TypeError('Client option "logger" must have a warn method'),
    );
  });

  /** Exact messages: the owner, the option, what it must be, and what it got. */
  const MESSAGES: [what: string, build: () => unknown, message: string][] = [
    [
      "a URL that does not parse",
      () => new HttpClientTransport("nope"),
      'HttpClientTransport option "url" must be an absolute http(s) URL, got "nope"',
    ],
    [
      "a URL of another scheme",
      () => new HttpClientTransport("ftp://example.com/mcp"),
      'HttpClientTransport option "url" must be an absolute http(s) URL, got "ftp://example.com/mcp"',
    ],
    [
      "a logger without its one method",
      () => createHttpHandler(server, { logger: {} as never }),
      'createHttpHandler option "logger" must have an error method',
    ],
    [
      "allowedHosts that is not an array",
      () => createHttpHandler(server, { allowedHosts: "localhost" as never }),
      'createHttpHandler option "allowedHosts" must be an array of hostnames or "*"',
    ],
    [
      "an allowedHosts entry with a port",
      () => createHttpHandler(server, { allowedHosts: ["localhost:3000"] }),
      'createHttpHandler option "allowedHosts" must hold bare hostnames such as "mcp.example.com" or "127.0.0.1" ' +
        '(no scheme, port or path: hosts match on any port), got "localhost:3000"',
    ],
    [
      "allowedOrigins that is not an array",
      () => createHttpHandler(server, { allowedOrigins: 3 as never }),
      'createHttpHandler option "allowedOrigins" must be an array of origins or "*"',
    ],
    [
      "an allowedOrigins entry that is not an origin",
      () => createHttpHandler(server, { allowedOrigins: ["app.example.com"] }),
      'createHttpHandler option "allowedOrigins" must hold origins (scheme, host and optional port only) such as ' +
        '"https://app.example.com", got "app.example.com"',
    ],
  ];

  it.each(MESSAGES)("name the owner and the option: %s", (_what, build, message) => {
    expect(build).toThrow(new TypeError(message));
  });

  it.each([
    ["not a url", 'Client.connect target must be an absolute http(s) URL, got "not a url"'],
    [
      "ws://example.com/mcp",
      'Client.connect target must be an absolute http(s) URL, got "ws://example.com/mcp"',
    ],
  ])("name Client.connect and its target: %s", async (target, message) => {
    await expect(Client.connect(target)).rejects.toThrow(new TypeError(message));
  });

  it("refuse a transport or dispatcher that is not one", () => {
    expect(() => new InMemoryTransport({} as never)).toThrow(TypeError);
    expect(() => new ClientSession({} as never)).toThrow(TypeError);
  });

  it("accept a client logger with only warn, and any full Logger", () => {
    expect(() => new Client(transport, { logger: { warn() {} } })).not.toThrow();
    expect(() => new Client(transport, { logger: silentLogger })).not.toThrow();
    expect(() =>
      serveStdio(server, { stdin: new PassThrough(), logger: silentLogger }).close(),
    ).not.toThrow();
  });
});

describe("Server.handle", () => {
  it("never rejects, even when the logger throws while reporting a failure", async () => {
    const throwing = {
      ...silentLogger,
      error: () => {
        throw new Error("logger down");
      },
    };
    const failing = new Server("s", {
      logger: throwing,
      onListTools: () => {
        throw new Error("handler down");
      },
    });
    const response = await failing.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
      { signal: new AbortController().signal },
    );
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
  });
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
