/**
 * tsmcp: a TypeScript SDK for the Model Context Protocol. The root re-exports the wire layer
 * (`tsmcp/types`); import the rest from the subpaths: `tsmcp/server`, `tsmcp/client`,
 * `tsmcp/transport` (runtime-neutral), `tsmcp/node` and `tsmcp/stdio` (Node.js only).
 */
export * from "./protocol/index.js";
