/**
 * The test harness: a user's own `MCPServer` (or low-level `Server`) driven in this process by a
 * real `Client`, in either era, with scripted answers. A run gives the final result, the number of
 * `input_required` rounds and every question asked; a raw leg gives one answer as the server sent
 * it, for tests that tamper with, replay or expire a `requestState`. Framework-neutral: it imports
 * no test framework, so it runs under vitest, jest and `node:test` alike.
 * Spec: basic/patterns/mrtr, basic/lifecycle.
 */
import { Client } from "../client/client.js";
import type { Implementation } from "../protocol/schema/base.js";
import type { InputRequiredResult, InputResponses } from "../protocol/schema/input.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "../protocol/schema/methods.js";
import type { AuthInfo, Dispatcher } from "../transport/dispatcher.js";
import {
  type AnswerableKinds,
  type AnswerScript,
  type AskedQuestion,
  scriptedCallbacks,
  type UnscriptedQuestionError,
} from "./script.js";

/** The eras a harness speaks: the stateless 2026-07-28 core, and a 2025-11-25 session. */
export const ERAS = Object.freeze(["2026-07-28", "2025-11-25"] as const);

/** One of {@link ERAS}. */
export type Era = (typeof ERAS)[number];

/** Options of {@link testServer} (each call may override `authInfo` and `answerable`). */
export interface TestServerOptions {
  /** The era to speak. Default `"2026-07-28"`. */
  readonly era?: Era;
  /** Who the requests come from, as an auth layer would establish it. Default: no one. */
  readonly authInfo?: AuthInfo;
  /** The kinds of question the client declares it can answer. Default: all three. */
  readonly answerable?: AnswerableKinds;
  /** The client's name and version. Default `{ name: "tsmcp-testing", version: "0.0.0" }`. */
  readonly clientInfo?: Implementation;
  /** The most `input_required` rounds one call may take. Default the client's (10). */
  readonly maxRounds?: number;
}

/** Options of one call of a harness. */
export interface RunOptions {
  /** How the user answers. Default: no answers (any question fails the call). */
  readonly answers?: AnswerScript;
  /** Who this call comes from (overrides the harness's). */
  readonly authInfo?: AuthInfo;
  /** The kinds of question the client declares for this call (overrides the harness's). */
  readonly answerable?: AnswerableKinds;
}

/** What one call came to. */
export interface CallRun<R> {
  /** The final result. */
  readonly result: R;
  /** How many `input_required` rounds it took (2026-07-28; 0 on a 2025-11-25 session). */
  readonly rounds: number;
  /** Every question asked, in order. */
  readonly questions: readonly AskedQuestion[];
}

/** One leg's input, for {@link ServerHarness.retry}. */
export interface LegInput {
  readonly inputResponses?: InputResponses;
  readonly requestState?: string;
  /** Who this leg comes from (overrides the harness's). */
  readonly authInfo?: AuthInfo;
}

/** A call's method and params, for the raw legs. */
export type CallTarget =
  | { readonly method: "tools/call"; readonly name: string; readonly arguments?: Record<string, unknown> }
  | { readonly method: "prompts/get"; readonly name: string; readonly arguments?: Record<string, string> }
  | { readonly method: "resources/read"; readonly uri: string };

/** What one raw leg answered: the final result, or the round's `InputRequiredResult`. */
export type LegResult = CallToolResult | GetPromptResult | ReadResourceResult | InputRequiredResult;

/** A server under test (see {@link testServer}). */
export interface ServerHarness {
  /** The era it speaks. */
  readonly era: Era;
  /**
   * Calls a tool, answering its questions from the script. Rejects as `Client.callTool` does, or
   * with `UnscriptedQuestionError` for a question the script does not answer.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: RunOptions,
  ): Promise<CallRun<CallToolResult>>;
  /** Gets a prompt, answering its questions from the script. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: RunOptions,
  ): Promise<CallRun<GetPromptResult>>;
  /** Reads a resource, answering its questions from the script. */
  readResource(uri: string, options?: RunOptions): Promise<CallRun<ReadResourceResult>>;
  /**
   * Sends one leg of `target` without answers or state (2026-07-28 only): the result, or the
   * round's `InputRequiredResult` as the server sent it (its `requestState` sealed).
   *
   * @throws TypeError on a 2025-11-25 harness.
   */
  firstRound(target: CallTarget, options?: { readonly authInfo?: AuthInfo }): Promise<LegResult>;
  /** Sends one leg of `target` with these answers and this state (2026-07-28 only); as {@link firstRound}. */
  retry(target: CallTarget, leg: LegInput): Promise<LegResult>;
  /** Closes the client. */
  close(): Promise<void>;
}

/** The server seen through a dispatcher that adds the current call's `AuthInfo` to each request. */
class AuthenticatingDispatcher implements Dispatcher {
  authInfo: AuthInfo | undefined;
  readonly #server: Dispatcher;
  readonly supportedVersions: readonly string[] | undefined;

  constructor(server: Dispatcher) {
    this.#server = server;
    this.supportedVersions = server.supportedVersions;
  }

  handle(...[message, env]: Parameters<Dispatcher["handle"]>): ReturnType<Dispatcher["handle"]> {
    const auth = this.authInfo;
    return this.#server.handle(message, auth === undefined ? env : { ...env, auth });
  }
}

class Harness implements ServerHarness {
  readonly era: Era;
  readonly #dispatcher: AuthenticatingDispatcher;
  readonly #options: TestServerOptions;
  readonly #clients = new Set<Client>();

  constructor(server: Dispatcher, options: TestServerOptions) {
    this.era = options.era ?? "2026-07-28";
    if (!ERAS.includes(this.era)) throw new RangeError(`testServer: era must be one of ${ERAS.join(", ")}`);
    this.#dispatcher = new AuthenticatingDispatcher(server);
    this.#options = options;
  }

  async #client(
    script: AnswerScript,
    asked: AskedQuestion[],
    answerable: AnswerableKinds | undefined,
    unscripted: UnscriptedQuestionError[],
  ): Promise<Client> {
    const client = await Client.connect(this.#dispatcher, {
      ...scriptedCallbacks(script, asked, answerable ?? this.#options.answerable, unscripted),
      clientInfo: this.#options.clientInfo ?? { name: "tsmcp-testing", version: "0.0.0" },
      protocolVersion: this.era === "2026-07-28" ? "2026-07-28" : "legacy",
      ...(this.#options.maxRounds === undefined ? {} : { inputRequiredMaxRounds: this.#options.maxRounds }),
    });
    this.#clients.add(client);
    return client;
  }

  async #run<R>(options: RunOptions, call: (client: Client) => Promise<R>): Promise<CallRun<R>> {
    const asked: AskedQuestion[] = [];
    const unscripted: UnscriptedQuestionError[] = [];
    this.#dispatcher.authInfo = options.authInfo ?? this.#options.authInfo;
    const client = await this.#client(options.answers ?? {}, asked, options.answerable, unscripted);
    try {
      let result: R;
      try {
        result = await call(client);
      } catch (error) {
        // The question nothing answered, rather than how the server reported the failed callback.
        throw unscripted[0] ?? error;
      }
      const rounds = this.era === "2026-07-28" ? Math.max(0, ...asked.map((question) => question.round)) : 0;
      return { result, rounds, questions: asked };
    } finally {
      this.#clients.delete(client);
      await client.close();
    }
  }

  callTool(name: string, args?: Record<string, unknown>, options: RunOptions = {}) {
    return this.#run(options, (client) => client.callTool(name, args, {}));
  }

  getPrompt(name: string, args?: Record<string, string>, options: RunOptions = {}) {
    return this.#run(options, (client) => client.getPrompt(name, args));
  }

  readResource(uri: string, options: RunOptions = {}) {
    return this.#run(options, (client) => client.readResource(uri));
  }

  firstRound(target: CallTarget, options: { readonly authInfo?: AuthInfo } = {}): Promise<LegResult> {
    return this.retry(target, options);
  }

  async retry(target: CallTarget, leg: LegInput): Promise<LegResult> {
    if (this.era !== "2026-07-28") {
      throw new TypeError(
        "raw legs carry inputResponses and requestState: only a 2026-07-28 harness sends them",
      );
    }
    const result = await this.#run(
      { ...(leg.authInfo === undefined ? {} : { authInfo: leg.authInfo }) },
      (client) => sendLeg(client, target, leg),
    );
    return result.result;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients].map((client) => client.close()));
  }
}

/** Sends one leg of `target` through `client.session`, taking an `InputRequiredResult` as an answer. */
function sendLeg(client: Client, target: CallTarget, leg: LegInput): Promise<LegResult> {
  const extra = {
    allowInputRequired: true as const,
    ...(leg.inputResponses === undefined ? {} : { inputResponses: leg.inputResponses }),
    ...(leg.requestState === undefined ? {} : { requestState: leg.requestState }),
  };
  switch (target.method) {
    case "tools/call":
      return client.session.callTool(target.name, target.arguments, extra) as Promise<LegResult>;
    case "prompts/get":
      return client.session.getPrompt(target.name, target.arguments, extra) as Promise<LegResult>;
    case "resources/read":
      return client.session.readResource(target.uri, extra) as Promise<LegResult>;
  }
}

/**
 * A harness over `server` (an `MCPServer`, a `Server`, or any dispatcher), in this process:
 *
 * ```ts
 * const t = testServer(createProvisioningServer(), { era: "2026-07-28" });
 * const run = await t.callTool("provision", { name: "orders" }, { answers: { region: { region: "eu-west-1" } } });
 * // run.result.content, run.rounds === 1, run.questions[0].key === "region"
 * ```
 *
 * @throws TypeError when `server` is not a dispatcher; RangeError for an unknown `era`.
 */
export function testServer(server: Dispatcher, options: TestServerOptions = {}): ServerHarness {
  if (typeof (server as Partial<Dispatcher> | null)?.handle !== "function") {
    throw new TypeError("testServer: server must be an MCPServer, a Server or another dispatcher");
  }
  return new Harness(server, options);
}
