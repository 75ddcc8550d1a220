/**
 * Subscriptions to a resource need the scopes reading it needs: a 2025-era `resources/subscribe`
 * and the `resourceSubscriptions` of a `subscriptions/listen` naming a URI whose resource (or
 * matching template) declares `requiredScopes` the request's token lacks are refused like the read
 * (an insufficient-scope error, 403 with a step-up challenge over HTTP). Spec: server/resources
 * §Subscriptions, basic/authorization §Scope Challenge Handling.
 */

import type { McpError } from "../../protocol/errors.js";
import { insufficientScope } from "../../protocol/insufficient-scope.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../protocol/jsonrpc.js";
import type { AuthInfo, RequestEnvironment } from "../../transport/dispatcher.js";
import { type Middleware, stepMiddleware } from "../middleware.js";
import { grants } from "./scopes.js";

/** The `requiredScopes` of what a read of a URI reaches (empty when nothing, or nothing is needed). */
export type ScopesOfUri = (uri: string) => readonly string[];

/**
 * The refusal of subscribing to `uris` for a request with `auth`: every scope those URIs need, in
 * one insufficient-scope error, when one is missing; undefined when all are granted. Entries that
 * are not strings are left to params validation.
 */
export function subscriptionRefusal(
  uris: readonly unknown[],
  auth: AuthInfo | undefined,
  scopesOf: ScopesOfUri,
): McpError | undefined {
  const required = new Set<string>();
  let refused = false;
  for (const uri of uris) {
    if (typeof uri !== "string") continue;
    const scopes = scopesOf(uri);
    for (const scope of scopes) required.add(scope);
    if (!grants(auth, scopes)) refused = true;
  }
  return refused ? insufficientScope([...required]) : undefined;
}

/** Checks the `resourceSubscriptions` of a `subscriptions/listen` against the URIs' scopes. */
export function listenScopes(scopesOf: ScopesOfUri): Middleware {
  return stepMiddleware((request, next) => {
    if (request.method === "subscriptions/listen") {
      const notifications = request.params.notifications as { resourceSubscriptions?: unknown } | undefined;
      const uris = notifications?.resourceSubscriptions;
      if (Array.isArray(uris)) {
        const refusal = subscriptionRefusal(uris, request.context.auth, scopesOf);
        if (refusal !== undefined) throw refusal;
      }
    }
    return next(request);
  });
}

/**
 * The error answer of a 2025-era `resources/subscribe` (the session's own request, handled before
 * the middleware chain) naming a URI whose scopes the request lacks; undefined for anything else.
 */
export function legacySubscribeRefusal(
  message: JSONRPCRequest | JSONRPCNotification,
  env: RequestEnvironment,
  scopesOf: ScopesOfUri,
): JSONRPCResponse | undefined {
  if (message.method !== "resources/subscribe" || !("id" in message) || env.session === undefined) {
    return undefined;
  }
  const uri = (message.params as { uri?: unknown } | undefined)?.uri;
  const refusal = subscriptionRefusal([uri], env.auth, scopesOf);
  return refusal === undefined ? undefined : errorResponse(message.id, refusal);
}
