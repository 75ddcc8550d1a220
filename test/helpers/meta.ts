/** Shared fixtures for tests: a valid per-request `_meta` and JSON-RPC request builders. */
import type { JSONRPCRequest } from "../../packages/tsmcp/src/protocol/jsonrpc.js";

/** A valid 2026-07-28 `_meta` with the given client capabilities. */
export function requestMeta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
    ...extra,
  };
}

/** A JSON-RPC request carrying a valid `_meta` (unless params override it). */
export function rpc(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, params: { _meta: requestMeta(), ...params } };
}
