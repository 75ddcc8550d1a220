/**
 * tsmcp/types: the wire layer of MCP 2026-07-28 with no I/O: JSON-RPC framing, zod schemas,
 * the method table, the error table, protocol versions and the `x-mcp-header` annotation rules.
 */

export * from "./clock.js";
export * from "./errors.js";
export * from "./insufficient-scope.js";
export * from "./jsonrpc.js";
export * from "./methods.js";
export * from "./schema/base.js";
export * from "./schema/content.js";
export * from "./schema/handshake.js";
export * from "./schema/input.js";
export * from "./schema/methods.js";
export * from "./versions.js";
export * from "./x-mcp-header.js";
