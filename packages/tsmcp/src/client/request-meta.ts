/**
 * The per-request `_meta` envelope a client stamps on a request: the protocol version, the
 * capabilities and `clientInfo` at 2026-07-28, the log level, and the progress token; and the check
 * of a per-request timeout. Spec: basic/index §Request metadata.
 */
import type { ClientCapabilities, Implementation } from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";
import type { RequestOptions } from "./session-options.js";

/** What the envelope says about the client: the revision, its capabilities and its `clientInfo`. */
export interface ClientStamp {
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
}

/**
 * The `_meta` of one request: the caller's own `meta`, then (unless `legacy`) the client's stamp and
 * the log level, then the progress token when there is one.
 */
export function requestMeta(
  options: Pick<RequestOptions, "meta" | "logLevel">,
  stamp: ClientStamp,
  legacy: boolean,
  progressToken: string | undefined,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...options.meta };
  if (!legacy) {
    meta[META.protocolVersion] = stamp.protocolVersion;
    meta[META.clientCapabilities] = stamp.capabilities;
    if (stamp.clientInfo !== undefined) meta[META.clientInfo] = stamp.clientInfo;
    if (options.logLevel !== undefined) meta[META.logLevel] = options.logLevel;
  }
  if (progressToken !== undefined) meta[META.progressToken] = progressToken;
  return meta;
}

/** `params` with `meta` as its `_meta`, or `params` itself when `meta` is empty. */
export function withMeta(
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  return Object.keys(meta).length === 0 ? params : { ...params, _meta: meta };
}

/**
 * Refuses a per-request timeout that is not a positive number of milliseconds.
 *
 * @throws RangeError naming `where` and the value.
 */
export function checkTimeout(timeoutMs: number | undefined, where: string): void {
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`${where}: timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  }
}
