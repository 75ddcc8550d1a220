/**
 * What each kind of server -> client input needs the client to have declared (form or URL
 * elicitation, sampling with or without tools, roots), and the -32021 error when it did not. One
 * table for the 2026-07-28 input requests and the 2025-era back-channel requests alike.
 * Spec: basic/index §Error Codes (-32021), client/elicitation, client/sampling, client/roots.
 */
import { McpError } from "../protocol/errors.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";

/** What one kind of input request needs the client to have declared. */
export interface RequiredCapability {
  /** How the error message names it: "form elicitation", "URL elicitation", "sampling", ... */
  readonly label: string;
  /** The `requiredCapabilities` of the -32021 error's `data`. */
  readonly requiredCapabilities: ClientCapabilities;
  /** True when `capabilities` declares it. */
  readonly isDeclared: (capabilities: ClientCapabilities) => boolean;
}

/** Form-mode elicitation: `elicitation: {}` (neither mode named) means form; URL-only does not. */
export const FORM_ELICITATION: RequiredCapability = {
  label: "form elicitation",
  requiredCapabilities: { elicitation: { form: {} } },
  isDeclared: ({ elicitation }) =>
    elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
};
/** URL-mode elicitation: only an explicit `elicitation.url` declares it. */
export const URL_ELICITATION: RequiredCapability = {
  label: "URL elicitation",
  requiredCapabilities: { elicitation: { url: {} } },
  isDeclared: ({ elicitation }) => elicitation?.url !== undefined,
};
/** Sampling without tools. */
export const SAMPLING: RequiredCapability = {
  label: "sampling",
  requiredCapabilities: { sampling: {} },
  isDeclared: ({ sampling }) => sampling !== undefined,
};
/** Sampling with `tools` or `toolChoice`. */
export const SAMPLING_TOOLS: RequiredCapability = {
  label: "sampling.tools",
  requiredCapabilities: { sampling: { tools: {} } },
  isDeclared: ({ sampling }) => sampling?.tools !== undefined,
};
/** `roots/list`. */
export const ROOTS: RequiredCapability = {
  label: "roots",
  requiredCapabilities: { roots: {} },
  isDeclared: ({ roots }) => roots !== undefined,
};

/**
 * An extension the client must declare under `capabilities.extensions` (per request at
 * 2026-07-28), e.g. `io.modelcontextprotocol/tasks`. Spec: basic/versioning §Extension Negotiation.
 */
export function extensionCapability(extension: string): RequiredCapability {
  return {
    label: `${extension} extension`,
    requiredCapabilities: { extensions: { [extension]: {} } },
    isDeclared: ({ extensions }) =>
      typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, extension),
  };
}

/** The -32021 error for a missing capability, `what` naming who needs it (`resolver 'x'`). */
export function missingCapability(required: RequiredCapability, what: string): McpError {
  return McpError.of(
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    `Client did not declare the ${required.label} capability required by ${what}`,
    { requiredCapabilities: structuredClone(required.requiredCapabilities) },
  );
}
