/**
 * `tsmcp/testing`: test your own MCP server's multi-round-trip behaviour without wiring a client by
 * hand. {@link testServer} runs calls with scripted answers in either era and reports the rounds
 * and questions; raw legs, {@link tamperRequestState} and {@link manualClock} make the refusals
 * happen, and {@link expectInvalidRequestState} / {@link expectCapabilityRequired} check them;
 * {@link expectPrincipalBound} and {@link expectSingleUse} check what a state is bound to. It
 * imports no test framework: it works under vitest, jest and `node:test`.
 *
 * @packageDocumentation
 */
export { expectPrincipalBound, expectSingleUse } from "./bindings.js";
export {
  expectCapabilityRequired,
  expectInvalidRequestState,
  HarnessAssertionError,
  INVALID_REQUEST_STATE_MESSAGE,
  type ManualClock,
  manualClock,
  tamperRequestState,
} from "./expect.js";
export {
  type CallRun,
  type CallTarget,
  ERAS,
  type Era,
  type LegInput,
  type LegResult,
  type RunOptions,
  type ServerHarness,
  type TestServerOptions,
  testServer,
} from "./harness.js";
export {
  type AnswerableKinds,
  type AnswerScript,
  type AskedQuestion,
  type QuestionInfo,
  type ScriptedAnswer,
  scriptedCallbacks,
  UnscriptedQuestionError,
} from "./script.js";
