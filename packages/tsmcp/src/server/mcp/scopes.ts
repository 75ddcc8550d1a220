/**
 * Scopes a tool, prompt or resource requires of the request's access token, declared at
 * registration: checked before its handler runs (a token without them is refused with an
 * insufficient-scope error, 403 with a step-up challenge over HTTP), and optionally used to hide it
 * from lists. Spec: basic/authorization §Scope Challenge Handling.
 */
import { insufficientScope } from "../../protocol/insufficient-scope.js";
import type { AuthInfo } from "../../transport/dispatcher.js";

/** A scope token (RFC 6749 §3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The `requiredScopes` of a registration, copied and frozen (empty when absent).
 *
 * @throws TypeError when it is not an array of scope tokens.
 */
export function checkRequiredScopes(value: unknown, where: string): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (
    !Array.isArray(value) ||
    !value.every((scope) => typeof scope === "string" && SCOPE_TOKEN.test(scope))
  ) {
    throw new TypeError(`${where}: requiredScopes must be an array of scope tokens (RFC 6749 §3.3)`);
  }
  return Object.freeze([...new Set(value as string[])]);
}

/** True when `auth` was granted every scope of `required` (always, when nothing is required). */
export function grants(auth: AuthInfo | undefined, required: readonly string[]): boolean {
  if (required.length === 0) return true;
  const granted = auth?.scopes ?? [];
  return required.every((scope) => granted.includes(scope));
}

/**
 * @throws McpError -32600 "Forbidden: insufficient scope" with `data.requiredScopes` when `auth`
 *   lacks one of `required` (a request without an identity lacks them all).
 */
export function requireScopes(auth: AuthInfo | undefined, required: readonly string[]): void {
  if (!grants(auth, required)) throw insufficientScope(required);
}
