/**
 * Reading the client's answer to a form elicitation. Answers are untrusted input: this checks the
 * shape of the response and validates accepted content against a schema, and says what happened
 * as a discriminated union.
 * Spec: client/elicitation, basic/patterns/mrtr §Error Handling (validate the client's answers).
 */
import type { ElicitResult, InputResponse } from "../../protocol/schema/input.js";
import { type InferSchemaOutput, isStandardSchema, type SchemaLike, type ZodSchemaLike } from "./compile.js";
import { describeIssueFields, type JsonValidator, type SchemaIssue } from "./issues.js";
import { isPlainObject } from "./json.js";
import { compileLoadedJsonSchema } from "./json-schema.js";
import { validateStandard } from "./standard-validate.js";

/** The content of an accepted form elicitation, as the wire allows it. */
export type ElicitationContent = NonNullable<ElicitResult["content"]>;

/**
 * The accepted content of a form validated by `S`: the schema's output type, or
 * {@link ElicitationContent} for a raw JSON Schema. (A zod schema's type is read first, so that
 * the wire's content type is only computed where it is the answer.)
 */
export type ElicitationContentOf<S> = S extends ZodSchemaLike
  ? S["_zod"]["output"]
  : InferSchemaOutput<S, ElicitationContent>;

/**
 * What the client answered to one elicitation:
 * - `accepted`: the user submitted the form and `content` matches the schema;
 * - `declined` / `cancelled`: the user said no, or dismissed the request;
 * - `missing`: there is no answer under that key (typically the first round);
 * - `invalid`: the answer is malformed, or accepted with content that does not match the schema;
 *   `message` names the offending fields only (at most five, then how many more).
 */
export type ElicitationAnswer<T> =
  | { status: "accepted"; content: T }
  | { status: "declined" }
  | { status: "cancelled" }
  | { status: "missing" }
  | { status: "invalid"; message: string };

const jsonValidators = new WeakMap<object, JsonValidator>();

/** The schema's validator, compiled once per schema object (the engines must have loaded). */
function jsonValidatorFor(schema: object): JsonValidator {
  let validator = jsonValidators.get(schema);
  if (validator === undefined) {
    validator = compileLoadedJsonSchema(schema, "readElicitation");
    jsonValidators.set(schema, validator);
  }
  return validator;
}

function mismatch(issues: readonly SchemaIssue[]): { status: "invalid"; message: string } {
  return {
    status: "invalid",
    message: `the answer does not match the requested schema (fields: ${describeIssueFields(issues)})`,
  };
}

/**
 * Reads one elicitation answer, typically `ctx.inputResponses?.[key]`, against `schema`: a zod
 * schema or other Standard Schema (content typed by its output), or a raw JSON Schema object such
 * as the question's `requestedSchema` (compiled once per schema object). Never throws for anything
 * the client sent; the caller's objects are not modified.
 *
 * ```ts
 * const answer = readElicitation(ctx.inputResponses?.region, z.object({ region: z.enum(REGIONS) }));
 * if (answer.status === "declined" || answer.status === "cancelled") return "Not provisioned";
 * if (answer.status !== "accepted") return inputRequired({ inputRequests: { region: ASK_REGION } });
 * ```
 *
 * For URL-mode elicitations (no content), read `action` directly.
 *
 * A raw JSON Schema needs the JSON Schema engines, which load on demand (a server of zod schemas
 * never loads them): `await preloadJsonSchemaEngines()` at start-up before reading answers against
 * a raw schema. Without it this function throws on every call with a raw schema, first round
 * included (it answers synchronously, so it cannot wait for them).
 *
 * @throws TypeError when `schema` is neither a Standard Schema nor a JSON Schema object, ajv refuses
 *   a raw schema, `schema` is a raw JSON Schema and the JSON Schema engines are not loaded, or a Standard Schema validates asynchronously (use a synchronous schema).
 */
export function readElicitation<S extends SchemaLike>(
  response: InputResponse | undefined,
  schema: S,
): ElicitationAnswer<ElicitationContentOf<S>> {
  type Content = ElicitationContentOf<S>;
  const standard = isStandardSchema(schema);
  if (!standard && !isPlainObject(schema)) {
    throw new TypeError(
      "readElicitation: schema must be a zod schema, a Standard Schema, or a JSON Schema object",
    );
  }
  // Compiled before the answer is read, so a missing preload is refused on every round (the first
  // one included, in development), not only on a later round served by a fresh process.
  const validateJson = standard ? undefined : jsonValidatorFor(schema);
  if (response === undefined || response === null) return { status: "missing" };
  if (!isPlainObject(response))
    return { status: "invalid", message: "the answer is not an elicitation result" };
  switch (response.action) {
    case "decline":
      return { status: "declined" };
    case "cancel":
      return { status: "cancelled" };
    case "accept":
      break;
    default:
      return { status: "invalid", message: "the answer is not an elicitation result" };
  }
  const content = (response as { content?: unknown }).content;
  if (!isPlainObject(content))
    return { status: "invalid", message: "the answer was accepted without content" };
  if (validateJson !== undefined) {
    const issues = validateJson(content);
    return issues === undefined ? { status: "accepted", content: content as Content } : mismatch(issues);
  }
  const result = validateStandard(schema as Extract<SchemaLike, { "~standard": unknown }>, content);
  if (result instanceof Promise) {
    result.catch(() => undefined);
    throw new TypeError("readElicitation: the schema validates asynchronously; pass a synchronous schema");
  }
  return result.ok ? { status: "accepted", content: result.value as Content } : mismatch(result.issues);
}
