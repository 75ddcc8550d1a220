/**
 * The Durable Object side of the session adapter: a class whose objects each serve one
 * handshake-era (2025-11-25) session with the HTTP handler in `legacy: "session"` mode. Every
 * request of the session reaches the same object (see `createSessionRouter`), so a question the
 * server asks the client (elicitation, sampling, roots) on the SSE stream of the POST that caused
 * it, or on the GET stream, and the client's answer in a later POST meet in one object.
 *
 * What an object keeps is in its memory only: the session (its handshake, log level,
 * subscriptions), the questions in flight and the events kept for `Last-Event-ID` resumption. An
 * open SSE stream or a request in flight keeps the object alive; once the runtime evicts it
 * (idle for a while, a deploy, a restart), the session is gone and its id gets 404, on which the
 * client initializes a new session, as the spec provides. Nothing is written to the object's
 * storage. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import { optionTypeError } from "../../../protocol/options.js";
import type { Dispatcher } from "../../dispatcher.js";
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "../server/server-handler.js";
import { SESSION_ID_HEADER } from "../session/legacy.js";
import { joinObjectSessionId, sessionNotFound, splitObjectSessionId } from "./session-id.js";
import type { DurableObjectStateLike } from "./types.js";

/**
 * The HTTP handler options of a session object: those of `createHttpHandler` except `legacy`,
 * which is always `"session"`.
 */
export type SessionObjectHandlerOptions = Omit<HttpHandlerOptions, "legacy">;

/** One session object: the Durable Object's `fetch`. */
export interface SessionObject {
  /**
   * Serves one request of this object's session (or the `initialize` that starts it): the id's
   * first part must name this object, else 404; the `Mcp-Session-Id` of an answer is prefixed with
   * this object's id. Never rejects.
   */
  fetch(request: Request): Promise<Response>;
}

/** The class `createSessionObject` makes: export it from the Worker's module as the Durable Object class. */
export type SessionObjectClass<Env> = new (state: DurableObjectStateLike, env: Env) => SessionObject;

/**
 * Makes the Durable Object class that serves handshake-era sessions. Each object builds, in its
 * constructor, the server (`server(env)`, any `Dispatcher`: an `MCPServer`) and one HTTP handler
 * over it with `options` (or `options(env)`) and `legacy: "session"`. Export the class (or a
 * subclass) under the name the Durable Object binding's `class_name` gives.
 *
 * @param server builds the server an object serves; called once per object.
 * @param options the handler's options, or a function of `env` building them (called once per
 *   object). Give the Worker's own handler the same hosts, origins and `authenticate`.
 * @throws TypeError (here) when `server` is not a function or `options` neither an object nor a
 *   function; (in the object's constructor) when `options` names a `legacy` other than
 *   `"session"`, or for any option `createHttpHandler` refuses.
 */
export function createSessionObject<Env>(
  server: (env: Env) => Dispatcher,
  options: SessionObjectHandlerOptions | ((env: Env) => SessionObjectHandlerOptions) = {},
): SessionObjectClass<Env> {
  const owner = "createSessionObject";
  if (typeof server !== "function") throw optionTypeError(owner, "server", "a function");
  if (typeof options !== "function" && (typeof options !== "object" || options === null)) {
    throw optionTypeError(owner, "options", "an object or a function of env");
  }
  return class McpSessionObject implements SessionObject {
    readonly #objectId: string;
    readonly #handler: HttpHandler;

    constructor(state: DurableObjectStateLike, env: Env) {
      this.#objectId = state.id.toString();
      const given = typeof options === "function" ? options(env) : options;
      const legacy = (given as HttpHandlerOptions | undefined)?.legacy;
      if (legacy !== undefined && legacy !== "session") {
        throw optionTypeError(owner, "legacy", `"session" or absent, got ${JSON.stringify(legacy)}`);
      }
      this.#handler = createHttpHandler(server(env), { ...given, legacy: "session" });
    }

    async fetch(request: Request): Promise<Response> {
      const named = request.headers.get(SESSION_ID_HEADER);
      let forwarded = request;
      if (named !== null) {
        const parts = splitObjectSessionId(named.trim());
        if (parts === undefined || parts.objectId !== this.#objectId) return sessionNotFound();
        const headers = new Headers(request.headers);
        headers.set(SESSION_ID_HEADER, parts.sessionId);
        forwarded = new Request(request, { headers });
      }
      const response = await this.#handler(forwarded);
      const minted = response.headers.get(SESSION_ID_HEADER);
      if (minted === null) return response;
      const headers = new Headers(response.headers);
      headers.set(SESSION_ID_HEADER, joinObjectSessionId(this.#objectId, minted));
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
  };
}
