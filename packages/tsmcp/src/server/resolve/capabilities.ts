/**
 * The capability gate: before a resolver's question is asked, the client must have declared the
 * capability that answers it (on this request's `_meta`); otherwise the call fails with -32021 and
 * `data.requiredCapabilities` instead of asking. Spec: basic/index §Error Codes (-32021),
 * basic/patterns/mrtr.
 */
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import {
  FORM_ELICITATION,
  missingCapability,
  type RequiredCapability,
  ROOTS,
  SAMPLING,
  SAMPLING_TOOLS,
} from "../required-capability.js";
import type { Question } from "./question.js";

/** The capability `question` needs. */
export function requiredCapability(question: Question): RequiredCapability {
  switch (question.kind) {
    case "elicit":
      return FORM_ELICITATION;
    case "sample":
      return question.usesTools ? SAMPLING_TOOLS : SAMPLING;
    case "listRoots":
      return ROOTS;
  }
}

/**
 * Checks that the client declared what `question` needs before it is asked.
 *
 * @throws McpError -32021 `Client did not declare the <capability> capability required by resolver
 *   '<name>'` with `data: { requiredCapabilities }` when it did not.
 */
export function requireCapability(
  name: string,
  question: Question,
  capabilities: ClientCapabilities | undefined,
): void {
  const required = requiredCapability(question);
  if (required.isDeclared(capabilities ?? {})) return;
  throw missingCapability(required, `resolver '${name}'`);
}
