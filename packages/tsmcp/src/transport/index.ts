/**
 * tsmcp/transport: the client `Transport` interface, the server-side `Dispatcher` contract, the
 * in-memory transport and Streamable HTTP as web-standard code (the server handler, the client
 * transport, the header codecs). Runtime-neutral: the `node:http` adapter is in tsmcp/node and
 * stdio in tsmcp/stdio.
 */
export * from "./dispatcher.js";
export * from "./http/index.js";
export * from "./memory.js";
export * from "./trace.js";
export * from "./transport.js";
