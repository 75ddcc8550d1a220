/**
 * The question digest: a short, stable fingerprint of the exact question a resolver asks (the
 * rendered params of its input request), recorded with every answer so that an answer is only ever
 * used for the question it answered.
 */
import { createHash } from "node:crypto";

/** Characters in a question digest: 16 bytes of SHA-256 as unpadded base64url. */
export const QUESTION_DIGEST_LENGTH = 22;

/**
 * The digest of a rendered question: the first 16 bytes of SHA-256 over the compact JSON of
 * `params` (`null` when there are none), as unpadded base64url (22 characters). Key order matters:
 * renderings are built in a fixed order, so the same question gives the same digest in every process.
 */
export function questionDigest(params: unknown): string {
  const json = JSON.stringify(params ?? null);
  return createHash("sha256").update(json, "utf8").digest().subarray(0, 16).toString("base64url");
}
