/**
 * One MCP request over real HTTP, exactly as given: a 2026-07-28 request (its `_meta` and mirrored
 * headers) or a 2025-era one on a session, with an optional bearer token; resolves with the
 * status, the content type, the challenge, the session id, the body parsed as JSON (`undefined`
 * when empty or not JSON) and the body's raw `text` (for a non-JSON refusal such as a 401's `no`).
 */
import type { JSONRPCRequest } from "../../packages/tsmcp/src/protocol/jsonrpc.js";
import { requestMetadataHeaders } from "../../packages/tsmcp/src/transport/http/headers.js";
import { requestMeta } from "./meta.js";

let nextId = 1;

/** A 2026-07-28 request with a valid `_meta` (the client declares form elicitation). */
export function modern(method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { ...params, _meta: requestMeta({ elicitation: { form: {} } }) },
  };
}

/** A 2025-era request (no `_meta`). */
export function legacy(method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  return { jsonrpc: "2.0", id: nextId++, method, params };
}

/** The `initialize` of a 2025-11-25 client. */
export function initialize(): JSONRPCRequest {
  return legacy("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "legacy", version: "1" },
  });
}

/** The headers of a request on the 2025-era session `sessionId`. */
export function onSession(sessionId: string): Record<string, string> {
  return { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
}

/** The body as JSON, or `undefined` when it is empty or not JSON. */
function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** POSTs `message` to `url` as is, with `token` (if any) and `extra` headers. */
export async function post(
  url: string | URL,
  message: Pick<JSONRPCRequest, "method" | "params"> & { readonly jsonrpc?: string; readonly id?: unknown },
  token?: string,
  extra: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...requestMetadataHeaders(message),
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      ...extra,
    },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    challenge: response.headers.get("www-authenticate"),
    sessionId: response.headers.get("mcp-session-id"),
    // biome-ignore lint/suspicious/noExplicitAny: tests read the response's fields directly
    body: parseBody(text) as Record<string, any>,
    text,
  };
}
