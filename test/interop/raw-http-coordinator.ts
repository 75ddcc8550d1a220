/**
 * A host's raw request path for `@modelcontextprotocol/ext-tasks` (its `rawDispatch` option): each
 * request the package hands over is POSTed to a Streamable HTTP endpoint as one JSON-RPC request
 * with an id of its own, with the standard request headers (`MCP-Protocol-Version`, `Mcp-Method`,
 * and `Mcp-Name` mirroring `params.name` on `tools/call`) under the headers the package asks for
 * (`Mcp-Name` = `params.taskId` on `tasks/*`). The answer is read as one JSON-RPC response; the
 * test servers it talks to send no notifications, so they answer JSON, and an event stream is
 * refused rather than parsed. Every request is recorded with the headers it went with.
 */
import type { DispatchOptions, JsonRpcResponse } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";

/** One request the coordinator sent. */
export interface SentRequest {
  readonly method: string;
  readonly params: Record<string, JsonValue>;
  /** The request headers, names lowercase. */
  readonly headers: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Posts the package's requests to one endpoint. */
export class RawHttpCoordinator {
  readonly sent: SentRequest[] = [];
  readonly #url: URL;
  readonly #protocolVersion: string;
  #nextId = 1;

  constructor(url: URL, protocolVersion: string) {
    this.#url = url;
    this.#protocolVersion = protocolVersion;
  }

  async dispatch(request: JsonValue, options: DispatchOptions = {}): Promise<JsonRpcResponse> {
    if (!isRecord(request) || typeof request.method !== "string") {
      throw new TypeError("rawDispatch: the request must be an object with a method");
    }
    const method = request.method;
    const params = isRecord(request.params) ? request.params : {};
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": this.#protocolVersion,
      "mcp-method": method,
    };
    if (method === "tools/call" && typeof params.name === "string") headers["mcp-name"] = params.name;
    for (const [name, value] of Object.entries(options.context?.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    this.sent.push({ method, params, headers });
    const id = this.#nextId++;
    const response = await fetch(this.#url, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...request, jsonrpc: "2.0", id }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const contentType = response.headers.get("content-type") ?? "";
    if (!contentType.startsWith("application/json")) {
      throw new Error(`rawDispatch: ${method} answered ${response.status} with ${contentType || "no body"}`);
    }
    const message: unknown = await response.json();
    if (!isRecord(message) || message.id !== id) {
      throw new Error(`rawDispatch: ${method} answered something other than its response`);
    }
    if (isRecord(message.error)) {
      const { code, message: text, data } = message.error;
      if (typeof code !== "number" || typeof text !== "string") {
        throw new Error(`rawDispatch: ${method} answered a malformed error`);
      }
      return { kind: "error", error: { code, message: text, ...(data === undefined ? {} : { data }) } };
    }
    if (!("result" in message) || message.result === undefined) {
      throw new Error(`rawDispatch: ${method} answered neither result nor error`);
    }
    return { kind: "result", result: message.result };
  }
}
