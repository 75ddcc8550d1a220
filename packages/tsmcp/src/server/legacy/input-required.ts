/**
 * A hand-built `InputRequiredResult` on a 2025-era session, which has nowhere to put one: refused
 * with a -32603 that says so (the default), or, with
 * `legacyInputRequired: "fulfil"`, its rounds run in-process: every `inputRequests` entry is sent
 * to the client over the back-channel (concurrently), and the same request is run again through
 * the whole middleware chain with the answers as `inputResponses` and the `requestState`, until a
 * complete result or the round cap. Spec: basic/patterns/mrtr; (2025-11-25) client/elicitation,
 * client/sampling, client/roots.
 */
import { McpError } from "../../protocol/errors.js";
import type { Params } from "../../protocol/jsonrpc.js";
import { isInputRequired } from "../../protocol/methods.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import type { LogFields } from "../logger.js";
import type { MiddlewareRequest, Step, WireResult } from "../middleware.js";
import { backChannelOf } from "../telemetry/back-channel-span.js";

/**
 * What a `Server` does with a hand-built `InputRequiredResult` on a 2025-era session:
 * - `"refuse"` (default): answers -32603 "This tool asks for input with an InputRequiredResult,
 *   which a 2025-era session cannot carry; ..." (prompt, resource: likewise) and logs it. Choose
 *   it when handlers that serve old clients branch on `ctx.protocolVersion` (asking with
 *   `ctx.elicit` there), or serve only 2026-07-28 clients.
 * - `"fulfil"`: asks the client the `inputRequests` over the session's back-channel and calls the
 *   handler again with the answers, in-process, up to
 *   {@link DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS} rounds. Choose it when a handler returns
 *   `InputRequiredResult`s and must serve old clients without branching on `ctx.protocolVersion`.
 *
 * `MCPServer` resolver tools need neither: they ask over the back-channel on their own.
 */
export type LegacyInputRequired = "refuse" | "fulfil";

/**
 * The rounds `"fulfil"` runs for one request: after this many `InputRequiredResult`s answered in
 * a row, another one is answered -32603.
 */
export const DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS = 10;

/**
 * Checks the `legacyInputRequired` option.
 *
 * @throws TypeError `<owner> option "legacyInputRequired" must be "refuse" or "fulfil"` otherwise.
 */
export function checkLegacyInputRequired(owner: string, value: unknown): void {
  if (value === undefined || value === "refuse" || value === "fulfil") return;
  throw new TypeError(`${owner} option "legacyInputRequired" must be "refuse" or "fulfil"`);
}

/** The -32603 a 2025-era client gets when fulfilling an `InputRequiredResult` fails (the reason is logged). */
export function invalidLegacyResult(): McpError {
  return McpError.of("INTERNAL_ERROR", "Handler returned an invalid result");
}

/** What the client asked for, as the refusal below names it. */
const ASKED_FOR: Readonly<Record<string, string>> = {
  "tools/call": "tool",
  "prompts/get": "prompt",
  "resources/read": "resource",
};

/**
 * The -32603 a 2025-era client gets for a hand-built `InputRequiredResult` under `"refuse"`: it
 * says what happened and what fixes it, and names no handler or internal detail.
 */
export function refusedInputRequired(method: string): McpError {
  return McpError.of(
    "INTERNAL_ERROR",
    `This ${ASKED_FOR[method] ?? "request"} asks for input with an InputRequiredResult, which a ` +
      "2025-era session cannot carry; connect with a 2026-07-28 client, or the server can set " +
      'legacyInputRequired: "fulfil" to ask over the session',
  );
}

/** The message logged when an `InputRequiredResult` is refused on a 2025-era session. */
export const REFUSED_INPUT_REQUIRED_REASON =
  "an InputRequiredResult cannot be sent on a 2025-era session (answer with ctx.elicit there, " +
  'or set legacyInputRequired: "fulfil")';

/** One embedded request of an `InputRequiredResult`. */
interface EmbeddedRequest {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * Runs the rounds of `first` (the chain's result for `request`) to a complete result.
 *
 * @throws McpError -32603 "Handler returned an invalid result" (the reason to `log`) when there is
 *   no back-channel or the cap is reached; the client's error for an input request it refused; the
 *   abort reason when the request is cancelled.
 */
export async function fulfilInputRequired(
  run: Step,
  request: MiddlewareRequest,
  first: WireResult,
  env: RequestEnvironment,
  maxRounds: number,
  log: (message: string, fields: LogFields) => void,
): Promise<WireResult> {
  let result = first;
  for (let round = 1; isInputRequired(result); round++) {
    const refuse = (reason: string): McpError => {
      log(`handler for ${request.method} returned an invalid result`, { reason });
      return invalidLegacyResult();
    };
    if (round > maxRounds) {
      throw refuse(`still input_required after ${maxRounds} rounds fulfilled over the back-channel`);
    }
    const send = backChannelOf(env);
    if (send === undefined) throw refuse("an InputRequiredResult needs a back-channel on a 2025-era session");
    const entries = Object.entries((result.inputRequests ?? {}) as Record<string, EmbeddedRequest>);
    const answers = await Promise.all(
      entries.map(async ([key, embedded]) => {
        const answer = await send(embedded.method, embedded.params, { signal: env.signal });
        return [key, answer] as const;
      }),
    );
    const params: Params = {};
    for (const key of Object.keys(request.params)) {
      if (key !== "inputResponses" && key !== "requestState") params[key] = request.params[key];
    }
    if (answers.length > 0) params.inputResponses = Object.fromEntries(answers);
    if (typeof result.requestState === "string") params.requestState = result.requestState;
    env.signal.throwIfAborted();
    result = await run({ ...request, params });
  }
  return result;
}
