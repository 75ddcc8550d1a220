/**
 * The `Context` an `MCPServer` handler receives: the low-level request context (protocol version,
 * client info and capabilities, auth, AbortSignal, progress, logging) plus this round's multi
 * round-trip input — `inputResponses` and the plaintext `requestState` — and nested resource reads.
 * Spec: basic/patterns/mrtr, basic/index §Request metadata.
 */
import type { InputRequiredResult, InputResponses } from "../../protocol/schema/input.js";
import type { ReadResourceResult } from "../../protocol/schema/methods.js";
import type { RequestContext } from "../context.js";

/** What an `MCPServer` tool, prompt, resource, completer or list callback is told about its request. */
export interface Context extends RequestContext {
  /**
   * The client's answers to the previous round's `inputRequests`, under the same keys; `undefined`
   * on the first round. Untrusted input: check each answer (see `readElicitation`).
   */
  readonly inputResponses: InputResponses | undefined;
  /**
   * The plaintext `requestState` the handler returned last round (the boundary has verified and
   * opened the sealed token); `undefined` on the first round.
   */
  readonly requestState: string | undefined;
  /**
   * Reads one of this server's resources from inside a handler, as round one (no input responses,
   * no state). Resolves with the contents.
   *
   * @throws McpError -32602 (`data.uri`) when no resource matches; Error when the resource answers
   *   with an `InputRequiredResult` (a nested read cannot ask the client anything); whatever the
   *   resource's handler throws.
   */
  readResource(uri: string): Promise<ReadResourceResult>;
}

/** Reads a resource for a context: the server's `resources/read` path, minus the wire. */
export type ResourceReader = (uri: string, ctx: Context) => Promise<ReadResourceResult | InputRequiredResult>;

/** The message of the error a nested read throws when the resource asks for input. */
export const NESTED_INPUT_REQUIRED_MESSAGE =
  "The resource answered with an InputRequiredResult; ctx.readResource() only returns contents, " +
  "and a nested read cannot ask the client for input. Read it from the client instead.";

/** This round's multi round-trip input, from the request's params. */
export interface RoundInput {
  readonly inputResponses?: InputResponses | undefined;
  readonly requestState?: string | undefined;
}

/** Builds the `Context` of one handler call over the low-level request context. */
export function createContext(base: RequestContext, round: RoundInput, read: ResourceReader): Context {
  const context: Context = {
    ...base,
    inputResponses: round.inputResponses,
    requestState: round.requestState,
    async readResource(uri: string) {
      const result = await read(uri, createContext(base, {}, read));
      if (result.resultType === "input_required") throw new Error(NESTED_INPUT_REQUIRED_MESSAGE);
      return result as ReadResourceResult;
    },
  };
  return context;
}
