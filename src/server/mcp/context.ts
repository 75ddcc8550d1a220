/**
 * The `Context` an `MCPServer` handler receives: the low-level request context (protocol version,
 * client info and capabilities, auth, AbortSignal, progress, logging) plus this round's multi
 * round-trip input — `inputResponses` and the plaintext `requestState` — and nested resource reads.
 * Spec: basic/patterns/mrtr, basic/index §Request metadata.
 */

import type { LoggingLevel } from "../../protocol/schema/base.js";
import type { InputRequiredResult, InputResponses } from "../../protocol/schema/input.js";
import type { ReadResourceResult } from "../../protocol/schema/methods.js";
import type { ProgressUpdate, RequestContext } from "../context.js";

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

/**
 * The `Context` of one handler call: the low-level request context's fields, read through to it,
 * plus this round's input. One small object per call; no fields are copied.
 */
class HandlerContext implements Context {
  readonly base: RequestContext;
  readonly inputResponses: InputResponses | undefined;
  readonly requestState: string | undefined;
  readonly #read: ResourceReader;

  constructor(base: RequestContext, round: RoundInput, read: ResourceReader) {
    this.base = base;
    this.inputResponses = round.inputResponses;
    this.requestState = round.requestState;
    this.#read = read;
  }

  get method() {
    return this.base.method;
  }
  get requestId() {
    return this.base.requestId;
  }
  get protocolVersion() {
    return this.base.protocolVersion;
  }
  get clientInfo() {
    return this.base.clientInfo;
  }
  get clientCapabilities() {
    return this.base.clientCapabilities;
  }
  get meta() {
    return this.base.meta;
  }
  get authInfo() {
    return this.base.authInfo;
  }
  get signal() {
    return this.base.signal;
  }
  get logLevel() {
    return this.base.logLevel;
  }
  sendProgress(update: ProgressUpdate): void {
    this.base.sendProgress(update);
  }
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.base.log(level, data, logger);
  }
  async readResource(uri: string): Promise<ReadResourceResult> {
    const result = await this.#read(uri, new HandlerContext(this.base, {}, this.#read));
    if (result.resultType === "input_required") throw new Error(NESTED_INPUT_REQUIRED_MESSAGE);
    return result as ReadResourceResult;
  }
}

/** Builds the `Context` of one handler call over the low-level request context. */
export function createContext(base: RequestContext, round: RoundInput, read: ResourceReader): Context {
  return new HandlerContext(base, round, read);
}
