/**
 * Test-only stand-ins for a transport's 2025-era session: a plain `LegacySession` whose
 * back-channel answers from a table, and helpers that drive `handle(message, env)` with it.
 */
import { McpError } from "../../protocol/errors.js";
import type {
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from "../../protocol/jsonrpc.js";
import type { ClientCapabilities, LoggingLevel } from "../../protocol/schema/base.js";
import type {
  BackChannelRequest,
  BackChannelRequestOptions,
  Dispatcher,
  LegacyHandshake,
  LegacySession,
  RequestEnvironment,
} from "../../transport/dispatcher.js";
import type { Logger } from "../logger.js";

/** How the fake client answers one server -> client method. */
export type Answer = (params: Record<string, unknown> | undefined) => unknown;

/** One request the fake client received. */
export interface SentRequest {
  method: string;
  params: Record<string, unknown> | undefined;
  options: BackChannelRequestOptions | undefined;
}

/** A back-channel that answers from `table`; a method not in it is answered -32601. */
export function tableBackChannel(
  table: Record<string, Answer>,
): BackChannelRequest & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const request = async (
    method: string,
    params: Record<string, unknown> | undefined,
    options?: BackChannelRequestOptions,
  ) => {
    sent.push({ method, params, options });
    const answer = table[method];
    if (answer === undefined) throw new McpError(-32601, `Method not found: ${method}`);
    return (await answer(params)) as Record<string, unknown>;
  };
  return Object.assign(request, { sent });
}

/** A session as a transport would hold it, recording what it was sent. */
export interface TestSession extends LegacySession {
  /** Notifications sent with `notify`. */
  readonly notified: JSONRPCNotification[];
  /** Ends the session (aborts its signal). */
  end(): void;
}

/** A fresh, uninitialized session. */
export function testSession(id?: string): TestSession {
  const controller = new AbortController();
  const notified: JSONRPCNotification[] = [];
  return {
    id,
    handshake: undefined as LegacyHandshake | undefined,
    initialized: false,
    logLevel: undefined as LoggingLevel | undefined,
    resourceSubscriptions: new Set<string>(),
    signal: controller.signal,
    notify: (notification) => notified.push(notification),
    notified,
    end: () => controller.abort(new Error("session ended")),
  };
}

/** The environment of one message of `session`. */
export function legacyEnv(
  session: LegacySession,
  extra: Partial<RequestEnvironment> = {},
): RequestEnvironment & { notified: JSONRPCNotification[] } {
  const notified: JSONRPCNotification[] = [];
  return {
    signal: new AbortController().signal,
    notify: (notification) => notified.push(notification),
    session,
    ...extra,
    notified,
  };
}

let nextId = 1;

/** A JSON-RPC request without `_meta` (2025-era requests need none). */
export function legacyRequest(
  method: string,
  params?: Record<string, unknown>,
  id?: RequestId,
): JSONRPCRequest {
  const request: JSONRPCRequest = { jsonrpc: "2.0", id: id ?? nextId++, method };
  if (params !== undefined) request.params = params;
  return request;
}

/** `initialize` params of a client that asks for `protocolVersion` and declares `capabilities`. */
export function initializeParams(
  protocolVersion: unknown = "2025-11-25",
  capabilities: ClientCapabilities = {},
) {
  return { protocolVersion, capabilities, clientInfo: { name: "old-client", version: "1.0.0" } };
}

/** Runs `initialize` and `notifications/initialized` on `session`; throws if `initialize` fails. */
export async function handshake(
  server: Dispatcher,
  session: LegacySession,
  capabilities: ClientCapabilities = {},
  protocolVersion = "2025-11-25",
): Promise<Record<string, unknown>> {
  const response = await server.handle(
    legacyRequest("initialize", initializeParams(protocolVersion, capabilities)),
    legacyEnv(session),
  );
  const result = resultOf(response);
  await server.handle({ jsonrpc: "2.0", method: "notifications/initialized" }, legacyEnv(session));
  return result;
}

/** The result of a response; throws on an error response. */
export function resultOf(response: JSONRPCResponse | undefined): Record<string, unknown> {
  if (response === undefined || !("result" in response)) {
    throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  }
  return response.result;
}

/** The error of a response; throws on a result. */
export function errorOf(response: JSONRPCResponse | undefined): {
  code: number;
  message: string;
  data?: unknown;
} {
  if (response === undefined || !("error" in response)) {
    throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  }
  return response.error;
}

/** A logger that keeps what it is told. */
export function capturingLogger(): Logger & {
  lines: { level: string; message: string; fields?: unknown }[];
} {
  const lines: { level: string; message: string; fields?: unknown }[] = [];
  const at = (level: string) => (message: string, fields?: unknown) => {
    lines.push({ level, message, fields });
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), lines };
}
