/**
 * The capability gate: a server must not ask the client for input of a kind the client did not
 * declare (on this request's `_meta` at 2026-07-28, in the handshake on a 2025-era session). Which
 * capability each embedded input request needs (from `required-capability.ts`), and the middleware
 * that refuses a hand-built `InputRequiredResult` asking for an undeclared kind with -32021 and
 * `data.requiredCapabilities` before it goes out. Spec: basic/patterns/mrtr, basic/index §Error Codes (-32021).
 */
import { isInputRequired } from "../protocol/methods.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import type { InputRequest } from "../protocol/schema/input.js";
import {
  isThenable,
  type Middleware,
  type MiddlewareRequest,
  type Step,
  stepMiddleware,
  type WireResult,
} from "./middleware.js";
import {
  FORM_ELICITATION,
  missingCapability,
  type RequiredCapability,
  ROOTS,
  SAMPLING,
  SAMPLING_TOOLS,
  URL_ELICITATION,
} from "./required-capability.js";

/** The capability an embedded input request needs; undefined for a method this gate does not know. */
export function inputRequestCapability(request: InputRequest): RequiredCapability | undefined {
  const params = (request as { params?: Record<string, unknown> }).params ?? {};
  switch (request.method) {
    case "elicitation/create":
      return params.mode === "url" ? URL_ELICITATION : FORM_ELICITATION;
    case "sampling/createMessage":
      return params.tools !== undefined || params.toolChoice !== undefined ? SAMPLING_TOOLS : SAMPLING;
    case "roots/list":
      return ROOTS;
    default:
      return undefined;
  }
}

/**
 * Checks that the client declared every kind of input `inputRequests` asks for.
 *
 * @throws McpError -32021 `Client did not declare the <capability> capability required by input
 *   request '<key>'` with `data: { requiredCapabilities }`, for the first undeclared one.
 */
export function requireInputRequestCapabilities(
  inputRequests: Record<string, InputRequest>,
  capabilities: ClientCapabilities | undefined,
): void {
  for (const [key, request] of Object.entries(inputRequests)) {
    const required = inputRequestCapability(request);
    if (required !== undefined && !required.isDeclared(capabilities ?? {})) {
      throw missingCapability(required, `input request '${key}'`);
    }
  }
}

/**
 * A middleware that refuses an `InputRequiredResult` whose `inputRequests` ask for a kind of input
 * the client did not declare (a form or URL elicitation, sampling, sampling with tools, roots),
 * answering -32021 with `data.requiredCapabilities` instead. `MCPServer` installs it; on the
 * low-level `Server` it is one line: `server.use(inputRequestCapabilityGate())`.
 *
 * @throws McpError -32021 (from the returned middleware) as `requireInputRequestCapabilities`.
 */
export function inputRequestCapabilityGate(): Middleware {
  return stepMiddleware(gateStep);
}

/** The gate as a chain step: waits only when what follows it does. */
function gateStep(request: MiddlewareRequest, next: Step): WireResult | Promise<WireResult> {
  const result = next(request);
  return isThenable(result) ? gateLater(request, result) : gated(request, result);
}

async function gateLater(request: MiddlewareRequest, pending: PromiseLike<WireResult>): Promise<WireResult> {
  return gated(request, await pending);
}

/** `result`, once its `inputRequests` passed the gate. */
function gated(request: MiddlewareRequest, result: WireResult): WireResult {
  if (isInputRequired(result) && result.inputRequests !== undefined) {
    requireInputRequestCapabilities(
      result.inputRequests as Record<string, InputRequest>,
      request.context.clientCapabilities,
    );
  }
  return result;
}
