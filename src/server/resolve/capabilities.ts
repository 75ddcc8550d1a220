/**
 * The capability gate: before a resolver's question is asked, the client must have declared the
 * capability that answers it (on this request's `_meta`); otherwise the call fails with -32021 and
 * `data.requiredCapabilities` instead of asking. Spec: basic/index §Error Codes (-32021),
 * basic/patterns/mrtr.
 */
import { McpError } from "../../protocol/errors.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import type { Question } from "./question.js";

/** What one kind of question needs the client to have declared. */
export interface RequiredCapability {
  /** How the error message names it: "form elicitation", "sampling", "sampling.tools" or "roots". */
  readonly label: string;
  /** The `requiredCapabilities` of the -32021 error's `data`. */
  readonly requiredCapabilities: ClientCapabilities;
  /** True when `capabilities` declares it. */
  readonly isDeclared: (capabilities: ClientCapabilities) => boolean;
}

const FORM_ELICITATION: RequiredCapability = {
  label: "form elicitation",
  requiredCapabilities: { elicitation: { form: {} } },
  // `elicitation: {}` (neither mode named) means form; URL-only does not answer a form.
  isDeclared: ({ elicitation }) =>
    elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
};
const SAMPLING: RequiredCapability = {
  label: "sampling",
  requiredCapabilities: { sampling: {} },
  isDeclared: ({ sampling }) => sampling !== undefined,
};
const SAMPLING_TOOLS: RequiredCapability = {
  label: "sampling.tools",
  requiredCapabilities: { sampling: { tools: {} } },
  isDeclared: ({ sampling }) => sampling?.tools !== undefined,
};
const ROOTS: RequiredCapability = {
  label: "roots",
  requiredCapabilities: { roots: {} },
  isDeclared: ({ roots }) => roots !== undefined,
};

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
  throw McpError.of(
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    `Client did not declare the ${required.label} capability required by resolver '${name}'`,
    { requiredCapabilities: structuredClone(required.requiredCapabilities) },
  );
}
