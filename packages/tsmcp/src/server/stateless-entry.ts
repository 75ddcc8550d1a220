/**
 * What the stateless core's entry needs besides the chain: the answer to a 2025-era `initialize`
 * that reached it without a session, and each method's params schema as the terminal step checks
 * it. Spec: basic/versioning, basic/index.
 */
import * as z from "zod";
import { McpError, unsupportedProtocolVersion } from "../protocol/errors.js";
import type { Params } from "../protocol/jsonrpc.js";
import { METHODS } from "../protocol/methods.js";

/**
 * The answer to a 2025-era `initialize`, which the stateless core has no handshake for; either way
 * it names the revisions served, so an older client learns what this server speaks (spec:
 * basic/versioning, backwards compatibility):
 * -32022 when it asks for a revision that is not served, else -32601 like any removed method, with
 * `data.supported`.
 */
export function legacyHandshake(params: Params | undefined, supported: readonly string[]): McpError {
  const requested = params?.protocolVersion;
  if (typeof requested === "string" && !supported.includes(requested)) {
    return unsupportedProtocolVersion(requested, supported);
  }
  return McpError.of("METHOD_NOT_FOUND", "Method not found: initialize", { supported: [...supported] });
}

/**
 * Each method's params schema with `_meta` taken as already validated: the entry validated it into
 * the request context, so the terminal step does not parse it a second time.
 */
export const PARAMS_AFTER_META = Object.fromEntries(
  Object.entries(METHODS).map(([method, spec]) => [method, spec.params.extend({ _meta: z.unknown() })]),
) as unknown as Record<keyof typeof METHODS, z.ZodType>;

/** An explicit `null` `requestState` or `inputResponses` means absent (a copy without them). */
export function withoutNullRetryFields(params: Params): Params {
  if (params.requestState !== null && params.inputResponses !== null) return params;
  const copy = { ...params };
  if (copy.requestState === null) delete copy.requestState;
  if (copy.inputResponses === null) delete copy.inputResponses;
  return copy;
}
