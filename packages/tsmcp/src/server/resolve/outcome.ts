/**
 * What a question came to: accepted with content, declined, or cancelled — the outcome vocabulary
 * of `readElicitation`, minus `missing` and `invalid` (a resolver never hands those to a consumer:
 * a missing answer is asked for, an invalid one fails the call).
 */
import type { ElicitationAnswer } from "../schema/elicitation-answer.js";

/**
 * The outcome a consumer wrapped in `outcome(...)` receives:
 * `{ status: "accepted"; content: T } | { status: "declined" } | { status: "cancelled" }`.
 * Sampling, roots and plain values are always `accepted`.
 */
export type ResolverOutcome<T> = Extract<
  ElicitationAnswer<T>,
  { status: "accepted" | "declined" | "cancelled" }
>;
