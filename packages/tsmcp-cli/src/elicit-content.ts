/**
 * The vocabulary the answering modules share: who asks a person (an {@link Asker}), what an
 * accepted form holds, and the one-line account of an answer. A leaf, so the scripted answers, the
 * answer checks and the terminal form can all use it without importing one another.
 * Spec: client/elicitation, client/sampling.
 */
import type { InputRequestContext } from "tsmcp/client";
import type { CreateMessageRequestParams, ElicitRequestParams, ElicitResult } from "tsmcp/types";

/** Answers a question a person is asked at the terminal. */
export interface Asker {
  /** Asks an elicitation (a form, or a URL to visit) and returns the person's answer. */
  elicit(params: ElicitRequestParams, context: InputRequestContext): Promise<ElicitResult>;
  /** Asks for the text a sampling request should be answered with; undefined when the person cancels. */
  sample(params: CreateMessageRequestParams, context: InputRequestContext): Promise<string | undefined>;
}

/** The content of an accepted form: each field's string, number, boolean, string list or null. */
export type ElicitContent = NonNullable<ElicitResult["content"]>;

/** One line for an answer: the action, and the content when accepted. */
export function describe(result: ElicitResult): string {
  return result.action === "accept" && result.content !== undefined
    ? `accept ${JSON.stringify(result.content)}`
    : result.action;
}
