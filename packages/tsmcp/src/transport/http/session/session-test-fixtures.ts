/**
 * Fixtures of the handshake-era session tests (not part of the package): a scripted 2025-era
 * dispatcher that answers `initialize` as the server does (setting the session's handshake) and
 * has tools that use the request environment's back-channel, notifications and SSE close; both
 * front ends served on 127.0.0.1 (the web handler through a `node:http` listener, and `serve`);
 * and request builders for a 2025-era client.
 */
import { McpError } from "../../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import type { Dispatcher, LegacySession, RequestEnvironment } from "../../dispatcher.js";
import { post } from "../http-test-fixtures.js";

export { type FrontEnd, nodeFrontEnd, type Served, webFrontEnd } from "../node/entries-test-fixtures.js";

/** What the scripted dispatcher saw and can be made to do. */
export interface ScriptedDispatcher extends Dispatcher {
  /** Every environment a message was handled with, in order. */
  readonly envs: { message: JSONRPCRequest | JSONRPCNotification; env: RequestEnvironment }[];
  /** The sessions that completed `initialize`. */
  readonly sessions: LegacySession[];
  /** Resolves with the abort reason when the `wait` tool's signal aborts. */
  waitAborted: Promise<unknown>;
  /** Resolves once `condition` holds, checked now and each time a message arrives. */
  until(condition: () => boolean): Promise<void>;
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

/**
 * A 2025-era dispatcher. `initialize` negotiates `2025-11-25` unless the client asks for
 * `2025-06-18` (and fails -32602 without `protocolVersion`). Tools: `echo`, `elicit` (asks the
 * client with `elicitation/create` over `env.request` and returns its answer as JSON, or the
 * error code), `progress` (a notification first), `reconnect` (closes its SSE stream, waits, then
 * answers), `wait` (until its signal aborts), `notify-wait` (a notification, then as `wait`), `env` (what the environment offered).
 */
export function scriptedDispatcher(): ScriptedDispatcher {
  let abortedWith!: (reason: unknown) => void;
  const waiters: { condition: () => boolean; resolve: () => void }[] = [];
  const dispatcher: ScriptedDispatcher = {
    envs: [],
    sessions: [],
    waitAborted: new Promise((resolve) => {
      abortedWith = resolve;
    }),
    until(condition) {
      if (condition()) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ condition, resolve }));
    },
    async handle(message, env) {
      dispatcher.envs.push({ message, env });
      for (const waiter of waiters.splice(0)) {
        if (waiter.condition()) waiter.resolve();
        else waiters.push(waiter);
      }
      if (!("id" in message)) {
        if (message.method === "notifications/initialized" && env.session) env.session.initialized = true;
        return undefined;
      }
      const params = message.params ?? {};
      const answer = (result: Record<string, unknown>): JSONRPCResponse => ({
        jsonrpc: "2.0",
        id: message.id,
        result,
      });
      switch (message.method) {
        case "initialize": {
          if (env.session === undefined) {
            return { jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "no handshake" } };
          }
          if (typeof params.protocolVersion !== "string") {
            return { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "protocolVersion" } };
          }
          const protocolVersion = params.protocolVersion === "2025-06-18" ? "2025-06-18" : "2025-11-25";
          env.session.handshake = {
            protocolVersion,
            clientInfo: { name: "test", version: "1" },
            clientCapabilities: {},
          };
          dispatcher.sessions.push(env.session);
          return answer({
            protocolVersion,
            capabilities: {},
            serverInfo: { name: "scripted", version: "1" },
          });
        }
        case "tools/call":
          return answer(await runTool(String(params.name), env, (reason) => abortedWith(reason)));
        default:
          return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
      }
    },
  };
  return dispatcher;
}

async function runTool(
  name: string,
  env: RequestEnvironment,
  onAborted: (reason: unknown) => void,
): Promise<Record<string, unknown>> {
  switch (name) {
    case "echo":
      return text("echo");
    case "elicit": {
      if (env.request === undefined) return text("no back-channel");
      try {
        const result = await env.request("elicitation/create", {
          message: "Name?",
          requestedSchema: { type: "object", properties: {} },
        });
        return text(JSON.stringify(result));
      } catch (error) {
        return text(`error ${error instanceof McpError ? error.code : String(error)}`);
      }
    }
    case "progress":
      env.notify?.({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 1 },
      });
      return text("done");
    case "reconnect":
      env.notify?.({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "before" },
      });
      env.closeSseStream?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return text("after reconnect");
    case "notify-wait":
      env.notify?.({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 1 },
      });
      await new Promise<void>((resolve) => {
        if (env.signal.aborted) resolve();
        env.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      return text("cancelled");
    case "wait":
      await new Promise<void>((resolve) => {
        if (env.signal.aborted) resolve();
        env.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      onAborted(env.signal.reason);
      return text("cancelled");
    case "env":
      return {
        ...text("env"),
        structuredContent: {
          sessionId: env.session?.id ?? null,
          hasSession: env.session !== undefined,
          hasRequest: env.request !== undefined,
          hasCloseSseStream: env.closeSseStream !== undefined,
          protocolVersion: env.session?.handshake?.protocolVersion ?? null,
        },
      };
    default:
      throw new McpError(-32602, `Unknown tool: ${name}`);
  }
}

/** The headers of a 2025-era POST (`MCP-Protocol-Version` and the session id when given). */
export function legacyHeaders(sessionId?: string, version = "2025-11-25"): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...(version === "" ? {} : { "MCP-Protocol-Version": version }),
    ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
  };
}

/** A 2025-era `initialize` request. */
export function initializeRequest(id: number | string = 1, protocolVersion = "2025-11-25"): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: { elicitation: {} }, clientInfo: { name: "old", version: "1" } },
  };
}

/** A 2025-era request (no `_meta`). */
export function legacyRequest(id: number | string, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method, params } satisfies JSONRPCRequest;
}

/** Visible ASCII, 0x21-0x7E, as the spec requires of a session id. */
export const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** Initializes a session at `version` and returns its id (throws when none is minted). */
export async function initialize(url: URL, version = "2025-11-25"): Promise<string> {
  const response = await post(url, initializeRequest(1, version), legacyHeaders(undefined, ""));
  const id = response.headers.get("mcp-session-id");
  await response.body?.cancel();
  if (response.status !== 200 || id === null)
    throw new Error(`initialize answered ${response.status} without a session id`);
  return id;
}

/** A GET on the session's stream, 2025-11-25 headers plus `extra`. */
export function getStream(url: URL, sessionId: string, extra: Record<string, string> = {}) {
  return fetch(url, {
    method: "GET",
    headers: {
      Accept: "text/event-stream",
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "2025-11-25",
      ...extra,
    },
  });
}

/** A `tools/call` of `name` on the session. */
export function callTool(url: URL, sessionId: string, id: number, name: string) {
  return post(url, legacyRequest(id, "tools/call", { name, arguments: {} }), legacyHeaders(sessionId));
}

/** The first text content of a JSON tool result. */
export async function resultText(response: Response): Promise<string> {
  const body = (await response.json()) as { result: { content: { text: string }[] } };
  return body.result.content[0]?.text as string;
}
