/**
 * The refusal of an operation whose access token lacks a scope it needs: a JSON-RPC -32600 whose
 * `data` names the scopes, `{ reason: "insufficient_scope", requiredScopes }`. Streamable HTTP
 * answers it with 403 and a `WWW-Authenticate: Bearer error="insufficient_scope"` challenge so the
 * client can step up. Spec: basic/authorization §Scope Challenge Handling, RFC 6750 §3.1.
 */
import { ERRORS, McpError } from "./errors.js";

/** The `data.reason` of an insufficient-scope refusal. */
export const INSUFFICIENT_SCOPE = "insufficient_scope";

/** What an insufficient-scope refusal carries in `error.data`. */
export interface InsufficientScopeData {
  reason: typeof INSUFFICIENT_SCOPE;
  /** Every scope the operation needs (those already granted included), for one step-up. */
  requiredScopes: string[];
}

/**
 * -32600 "Forbidden: insufficient scope" (HTTP 403) with `data: { reason: "insufficient_scope",
 * requiredScopes }`.
 */
export function insufficientScope(requiredScopes: readonly string[]): McpError {
  const data: InsufficientScopeData = { reason: INSUFFICIENT_SCOPE, requiredScopes: [...requiredScopes] };
  return new McpError(ERRORS.FORBIDDEN.code, "Forbidden: insufficient scope", data, {
    httpStatus: ERRORS.FORBIDDEN.httpStatus,
  });
}

/** The scopes an insufficient-scope error object names; undefined for any other error. */
export function requiredScopesOf(error: { code: number; data?: unknown }): string[] | undefined {
  if (error.code !== ERRORS.FORBIDDEN.code) return undefined;
  const data = error.data as Partial<InsufficientScopeData> | undefined;
  if (typeof data !== "object" || data === null || data.reason !== INSUFFICIENT_SCOPE) return undefined;
  const scopes = data.requiredScopes;
  return Array.isArray(scopes) && scopes.every((scope) => typeof scope === "string") ? scopes : undefined;
}
