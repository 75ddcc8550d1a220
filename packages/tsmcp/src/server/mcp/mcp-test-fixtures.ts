/**
 * Shared fixtures of the `MCPServer` tests (not part of the package): serving a server over real
 * Streamable HTTP on 127.0.0.1 with a real `Client` connected to it (both closed when the test
 * ends), a logger that records what it is told, and raw JSON-RPC posts for wire-level assertions.
 */
import { onTestFinished } from "vitest";
import { post } from "../../../../../test/helpers/mcp-post.js";

export { type LogRecord, type RecordingLogger, recordingLogger } from "../../../../../test/helpers/logs.js";

import { Client, type ClientOptions } from "../../client/client.js";
import type { JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { LATEST_PROTOCOL_VERSION, META } from "../../protocol/versions.js";
import { serve } from "../../transport/http/node/node.js";
import type { MCPServer } from "./server.js";

/** A server served over HTTP and a client connected to it. */
export interface Connected {
  readonly client: Client;
  readonly url: URL;
}

/** Serves `mcp` on an ephemeral loopback port and connects a `Client`; both close when the test ends. */
export async function overHttp(mcp: MCPServer, options: ClientOptions = {}): Promise<Connected> {
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  const client = await Client.connect(handle.url, options);
  onTestFinished(() => client.close());
  return { client, url: handle.url };
}

/** The `_meta` of a raw 2026-07-28 request. */
export function rawMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: { name: "raw-test-client", version: "1.0.0" },
  };
}

/**
 * POSTs one JSON-RPC request to `url` exactly as given (plus `_meta` and the required headers), and
 * returns the parsed response: for assertions on the exact wire bytes a client would see.
 */
export async function postRaw(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
): Promise<JSONRPCResponse> {
  const message = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: rawMeta(capabilities) } };
  return (await post(url, message)).body as JSONRPCResponse;
}
