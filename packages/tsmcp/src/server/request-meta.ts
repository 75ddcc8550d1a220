/**
 * Reading the per-request `_meta` of a 2026-07-28 request: each missing required field is its own
 * -32602, an unserved version is -32022 naming the versions served. Spec: basic/index §Request
 * metadata, basic/versioning.
 */
import { invalidParams, unsupportedProtocolVersion } from "../protocol/errors.js";
import type { Params } from "../protocol/jsonrpc.js";
import { type RequestMeta, RequestMetaSchema } from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";
import { isPlainRequestMeta } from "./plain-shapes.js";
import { describeIssues, toIssue } from "./schema/issues.js";

/**
 * The first problem of a zod error as "path: message", formatted by `describeIssues` (the path cut
 * to 100 characters and the message to 200: both can quote what the client sent).
 */
export function describeIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  return issue === undefined ? "invalid value" : describeIssues([toIssue(issue)]);
}

/**
 * Validates the `_meta` of a request's params.
 *
 * @throws McpError -32602 naming the missing or malformed field, or -32022 when the version is not
 *   in `supportedVersions`.
 */
export function readRequestMeta(
  params: Params | undefined,
  supportedVersions: readonly string[],
): RequestMeta {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw invalidParams("Invalid params: missing required _meta", { field: "_meta" });
  }
  const fields = meta as Record<string, unknown>;
  const version = fields[META.protocolVersion];
  if (typeof version !== "string") {
    const problem = version === undefined ? "is missing" : "has a non-string";
    throw invalidParams(`Invalid params: _meta ${problem} "${META.protocolVersion}"`, {
      field: `_meta.${META.protocolVersion}`,
    });
  }
  if (!supportedVersions.includes(version)) throw unsupportedProtocolVersion(version, supportedVersions);
  if (fields[META.clientCapabilities] === undefined) {
    throw invalidParams(`Invalid params: _meta is missing "${META.clientCapabilities}"`, {
      field: `_meta.${META.clientCapabilities}`,
    });
  }
  // The common shape is checked by hand (the schema would return it unchanged); the rest by the schema.
  if (isPlainRequestMeta(meta)) return meta as RequestMeta;
  const parsed = RequestMetaSchema.safeParse(meta);
  if (!parsed.success) {
    throw invalidParams(`Invalid params: _meta.${describeIssue(parsed.error.issues)}`);
  }
  return parsed.data;
}
