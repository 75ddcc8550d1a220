/**
 * tsmcp/transport: the client `Transport` interface, the server-side `Dispatcher` contract, and
 * the in-memory, stdio and Streamable HTTP implementations.
 */
export * from "./dispatcher.js";
export * from "./http/index.js";
export * from "./memory.js";
export * from "./transport.js";
