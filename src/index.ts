/**
 * tsmcp's package root exports nothing, on purpose: every import names its side, so a server
 * bundle never pulls in the client and a reader sees at the import what a file uses. Import from
 * the subpaths: `tsmcp/server` (MCPServer, Server, resolvers, auth), `tsmcp/client` (Client,
 * ClientSession, OAuth), `tsmcp/types` (wire types and schemas, `McpError`, `TsmcpError`, the
 * `Logger`), `tsmcp/transport` (the Transport interface, in-memory, Streamable HTTP in web-standard
 * code), and on Node.js `tsmcp/node` (node:http, Express, Fastify) and `tsmcp/stdio`.
 */
export {};
