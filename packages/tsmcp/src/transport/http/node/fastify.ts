/**
 * The Streamable HTTP server as a Fastify plugin: one route (every method) on the endpoint path,
 * served by the `node:http` listener on Fastify's raw request and response. In the plugin's own
 * context the body parsers are replaced by one that leaves the stream unread, so the handler's
 * limits and JSON-RPC refusals apply to every body. Typed structurally: nothing here imports
 * Fastify. Spec: basic/transports/streamable-http.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { optionTypeError } from "../../../protocol/options.js";
import type { Dispatcher } from "../../dispatcher.js";
import { PROTECTED_RESOURCE_METADATA_PATH } from "../server/resource-metadata.js";
import { createExchangeHandler, type HttpHandlerOptions } from "../server/server-handler.js";
import { NodeExchange } from "./node-exchange.js";
import { answerNodeRequest } from "./node-listener.js";
import { DEFAULT_PATH } from "./node-options.js";

/** Options of {@link mcpFastify}: the handler's, plus the endpoint path. */
export interface McpFastifyOptions extends HttpHandlerOptions {
  /** The endpoint path, within the plugin's prefix. Default `"/mcp"`. */
  path?: string;
}

/** What the plugin uses of a Fastify request. */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly body?: unknown;
}

/** What the plugin uses of a Fastify reply. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  /** Tells Fastify the plugin answers on `raw` itself. */
  hijack(): unknown;
}

/** What the plugin uses of a Fastify instance. */
export interface FastifyInstanceLike {
  /** Drops Fastify's body parsers in the plugin's scope: the MCP handler reads the body itself. */
  removeAllContentTypeParsers(): void;
  /** Registers a parser that leaves every body unread, for the MCP handler to read. */
  addContentTypeParser(
    contentType: string,
    parser: (request: unknown, payload: unknown, done: (error: null) => void) => void,
  ): unknown;
  /** Routes every method of `path` to the MCP handler. */
  all(path: string, handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => void): unknown;
  /** Closes the MCP handler's sessions and streams when Fastify closes. */
  addHook(name: "onClose", hook: () => Promise<void>): unknown;
}

/** A Fastify plugin: `app.register(plugin)`. */
export type McpFastifyPlugin = (instance: FastifyInstanceLike) => Promise<void>;

/**
 * Builds a Fastify plugin serving `dispatcher` (a `Server` or `MCPServer`) on `path`:
 *
 * ```ts
 * const app = Fastify();
 * await app.register(mcpFastify(mcp));               // every method on /mcp
 * await app.listen({ port: 3000, host: "127.0.0.1" });
 * ```
 *
 * Every method on the path reaches the handler (wrong ones get 405; `OPTIONS` is the preflight
 * when `cors` is on), and, with `protectedResourceMetadata`, so do the metadata paths. The plugin
 * is encapsulated: in its context the body is left unread for the handler, so `maxBodyBytes` and
 * `maxJsonDepth` apply and every refusal is JSON-RPC, whatever parsers the app registered
 * (Fastify's `bodyLimit` does not apply); a `request.body` something set anyway is used as
 * `createNodeListener` uses `req.body`. The request's `AbortSignal` aborts when the response closes
 * before it finished; SSE answers stream as they are written. Handshake-era sessions end when the
 * app closes. Options and answers as `createHttpHandler` (tsmcp/transport), plus -32600 (HTTP 400) for a
 * missing or malformed `Host`.
 *
 * @throws TypeError for a `path` not starting with "/"; otherwise as `createHttpHandler` (tsmcp/transport)
 *   does, when built.
 */
export function mcpFastify(dispatcher: Dispatcher, options: McpFastifyOptions = {}): McpFastifyPlugin {
  const { path = DEFAULT_PATH, ...handlerOptions } = options;
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw optionTypeError("mcpFastify", "path", `a string starting with "/", got ${JSON.stringify(path)}`);
  }
  const handler = createExchangeHandler(dispatcher, handlerOptions, "mcpFastify");
  const route = (request: FastifyRequestLike, reply: FastifyReplyLike): void => {
    reply.hijack();
    const outgoing = reply.raw;
    answerNodeRequest(handler, new NodeExchange(request.raw, outgoing, request.body)).catch(
      (error: unknown) => {
        outgoing.destroy(error instanceof Error ? error : undefined);
      },
    );
  };
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser("*", (_request, _payload, done) => done(null));
    instance.all(path, route);
    if (handlerOptions.protectedResourceMetadata !== undefined) {
      instance.all(PROTECTED_RESOURCE_METADATA_PATH, route);
      instance.all(`${PROTECTED_RESOURCE_METADATA_PATH}/*`, route);
    }
    instance.addHook("onClose", async () => handler.close());
  };
}
