/**
 * tsmcp: a TypeScript SDK for the Model Context Protocol. Import from the subpaths:
 * `tsmcp/server`, `tsmcp/client`, `tsmcp/types`, `tsmcp/transport`.
 */
export * from "./protocol/index.js";
