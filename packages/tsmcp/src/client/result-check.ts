/**
 * Checks a server's result against the method table: a complete result is parsed by the method's
 * schema, an `InputRequiredResult` is parsed and either handed back or refused, and anything else
 * becomes an `InvalidServerResponseError`. Spec: basic/patterns/mrtr §Client Requirements.
 */
import { type InputRequiredMethod, isInputRequired, METHODS, type Method } from "../protocol/methods.js";
import { type InputRequiredResult, InputRequiredResultSchema } from "../protocol/schema/input.js";
import { InvalidServerResponseError, UnexpectedInputRequiredError } from "./errors.js";
import { isPlainToolResult } from "./result-shape.js";

/**
 * The parsed complete result of `method`.
 *
 * @throws InvalidServerResponseError for a `resultType` other than `"complete"` or a result that
 *   does not match the method's schema.
 */
export function checkCompleteResult(method: Method, result: Record<string, unknown>): unknown {
  const resultType = result.resultType ?? "complete";
  if (resultType !== "complete") {
    throw new InvalidServerResponseError(`${method}: unrecognised resultType ${JSON.stringify(resultType)}`);
  }
  if (method === "tools/call" && isPlainToolResult(result)) return result;
  const parsed = METHODS[method].result.safeParse(result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidServerResponseError(
      `${method}: the result does not match the protocol (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`,
    );
  }
  return parsed.data;
}

/**
 * The result of a method that may ask for input: the parsed `InputRequiredResult` when
 * `allowInputRequired` is true, else the parsed complete result.
 *
 * @throws InvalidServerResponseError for a malformed result; UnexpectedInputRequiredError when the
 *   server asks for input and `allowInputRequired` is not true.
 */
export function checkCarrierResult(
  method: InputRequiredMethod,
  result: Record<string, unknown>,
  allowInputRequired: boolean,
): unknown {
  if (!isInputRequired(result)) return checkCompleteResult(method, result);
  const parsed = InputRequiredResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new InvalidServerResponseError(
      `${method}: malformed InputRequiredResult: ${parsed.error.issues[0]?.message}`,
    );
  }
  if (!allowInputRequired) throw new UnexpectedInputRequiredError(method, parsed.data);
  return parsed.data satisfies InputRequiredResult;
}
