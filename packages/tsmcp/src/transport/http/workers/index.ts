/**
 * tsmcp/workers: handshake-era (2025-11-25) sessions on Cloudflare Workers, each served by its own
 * Durable Object, so the server can ask such a client something (elicitation, sampling, roots).
 * The Worker routes with {@link createSessionRouter}: an `initialize` to a new object, each later
 * request of the session to the object its `Mcp-Session-Id` names, and every 2026-07-28 request to
 * the Worker's own stateless handler. {@link createSessionObject} makes the Durable Object class,
 * whose objects run the HTTP handler in `legacy: "session"` mode. The Workers API is described by
 * structural types; the entry is runtime-neutral. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 *
 * @packageDocumentation
 */
export { createSessionRouter, type SessionRouter, type SessionRouterOptions } from "./router.js";
export {
  createSessionObject,
  type SessionObject,
  type SessionObjectClass,
  type SessionObjectHandlerOptions,
} from "./session-object.js";
export type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStubLike,
} from "./types.js";
