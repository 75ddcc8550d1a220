/**
 * Who a task belongs to and what it is called: the owner key every task read is filtered by (a
 * digest of the authenticated principal, never a credential), and task ids that a third party
 * cannot guess or enumerate. Spec: https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md §Security Considerations).
 */
import { createHash, randomBytes } from "node:crypto";
import { type AuthInfo, principalOf } from "../../transport/dispatcher.js";

/** The owner key of every task created without an authenticated principal. */
export const ANONYMOUS_TASK_OWNER = "anonymous";

/** Bytes of randomness in a task id: 144 bits, 24 URL-safe characters. */
const TASK_ID_BYTES = 18;

/**
 * The owner key of a caller: the SHA-256 (hex) of its principal (`principalOf(auth)`: client id,
 * issuer and subject, or the token itself when it names none), or {@link ANONYMOUS_TASK_OWNER}
 * without auth. Two callers share tasks exactly when they are the same principal.
 */
export function taskOwnerOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return ANONYMOUS_TASK_OWNER;
  return createHash("sha256").update(principalOf(auth), "utf8").digest("hex");
}

/**
 * A new task id: 144 random bits from `node:crypto`, base64url (safe in an `Mcp-Name` header),
 * drawn again while it begins with `-`, so that no command line reads a task id as an option.
 */
export function newTaskId(): string {
  for (;;) {
    const id = randomBytes(TASK_ID_BYTES).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}
