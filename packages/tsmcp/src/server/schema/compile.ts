/**
 * User schemas, compiled once at registration: a zod v4 schema or any other Standard Schema that
 * can describe itself as JSON Schema (Standard JSON Schema), or a raw JSON Schema object (validated
 * with ajv). Each becomes the JSON Schema advertised on the wire plus a validator; nothing is
 * converted or compiled per request. Spec: basic/index §JSON Schema Usage, server/tools.
 */
import type { SchemaIssue } from "./issues.js";
import { deepFreeze, isPlainObject } from "./json.js";
import { compileJsonSchema, type JsonSchemaObject } from "./json-schema.js";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "./standard-schema.js";
import { validateStandard } from "./standard-validate.js";
import { DEFAULT_JSON_SCHEMA_VALIDATOR, type JsonSchemaValidator } from "./validator-choice.js";

/**
 * What the types read of a zod v4 schema (classic or mini): its `_zod` internals, which carry the
 * schema's input and output types. Reading them there rather than through `~standard` (which zod
 * derives from them) keeps a tool's type check cheap; at run time a zod schema is used as the
 * Standard Schema it is.
 */
export interface ZodSchemaLike {
  readonly _zod: { readonly input: unknown; readonly output: unknown };
}

/**
 * A schema tsmcp accepts: a zod v4 schema, any Standard Schema that also implements Standard JSON
 * Schema (wrap one that does not with {@link withJsonSchema}), or a raw 2020-12 JSON Schema object.
 */
export type SchemaLike = ZodSchemaLike | StandardSchemaV1 | JsonSchemaObject;

/**
 * What a value validated by `S` is: the schema's output type for a zod or other Standard Schema,
 * `Fallback` for a raw JSON Schema (whose shape TypeScript cannot see).
 */
export type InferSchemaOutput<S, Fallback> = S extends ZodSchemaLike
  ? S["_zod"]["output"]
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : Fallback;

/**
 * What `S` accepts: the schema's input type for a zod or other Standard Schema, `Fallback` for raw
 * JSON Schema.
 */
export type InferSchemaInput<S, Fallback> = S extends ZodSchemaLike
  ? S["_zod"]["input"]
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferInput<S>
    : Fallback;

/** The outcome of validating one value. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** A schema ready to serve: its advertised JSON Schema and its validator, both built once. */
export interface CompiledSchema<T = unknown> {
  /** The JSON Schema advertised on the wire (deeply frozen). */
  readonly jsonSchema: JsonSchemaObject;
  /**
   * Validates a value; answers synchronously unless the underlying Standard Schema is async. A
   * zod schema given a value of more than 64 nodes (objects, arrays and primitives) stops at the
   * first failing element or property, so an invalid value costs about what a valid one does; a
   * smaller value gets every issue.
   */
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
}

/** Which side of a schema is advertised: what it accepts (tool input) or what it produces (output). */
export type SchemaSide = "input" | "output";

const TARGET = "draft-2020-12";

/** True for a Standard Schema (it has a `~standard` property with a `validate` function). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (typeof value !== "object" && typeof value !== "function") return false;
  const props = (value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
  return typeof props === "object" && props !== null && typeof props.validate === "function";
}

function hasJsonSchema(schema: StandardSchemaV1): schema is StandardSchemaV1 & StandardJSONSchemaV1 {
  const converter = (schema["~standard"] as { jsonSchema?: { input?: unknown; output?: unknown } })
    .jsonSchema;
  return (
    typeof converter === "object" &&
    converter !== null &&
    typeof converter.input === "function" &&
    typeof converter.output === "function"
  );
}

/**
 * Pairs a Standard Schema that cannot describe itself as JSON Schema (zod v3, Valibot without its
 * converter, ...) with the JSON Schema to advertise for it. The result validates with `schema` and
 * advertises `jsonSchema` (for both sides); neither argument is modified.
 *
 * @throws TypeError when `schema` is not a Standard Schema or `jsonSchema` not an object.
 */
export function withJsonSchema<S extends StandardSchemaV1>(
  schema: S,
  jsonSchema: JsonSchemaObject,
): StandardSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>> &
  StandardJSONSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>> {
  if (!isStandardSchema(schema)) throw new TypeError("withJsonSchema: schema must be a Standard Schema");
  if (!isPlainObject(jsonSchema))
    throw new TypeError("withJsonSchema: jsonSchema must be a JSON Schema object");
  const advertised = deepFreeze(structuredClone(jsonSchema) as Record<string, unknown>);
  const props = schema["~standard"];
  return {
    "~standard": {
      version: 1,
      vendor: props.vendor,
      validate: (value: unknown) => props.validate(value),
      jsonSchema: { input: () => advertised, output: () => advertised },
    },
  } as StandardSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>> &
    StandardJSONSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>>;
}

function convertStandard(schema: StandardSchemaV1, side: SchemaSide, where: string): JsonSchemaObject {
  if (!hasJsonSchema(schema)) {
    throw new TypeError(
      `${where}: this ${schema["~standard"].vendor} schema cannot describe itself as JSON Schema ` +
        "(it does not implement Standard JSON Schema). Pass the JSON Schema explicitly: " +
        "withJsonSchema(schema, { type: 'object', properties: { ... } }), or a raw JSON Schema object.",
    );
  }
  let converted: unknown;
  try {
    converted = schema["~standard"].jsonSchema[side]({ target: TARGET });
  } catch (error) {
    throw new TypeError(
      `${where} cannot be converted to JSON Schema (${(error as Error).message}); pass the JSON ` +
        "Schema explicitly with withJsonSchema(schema, jsonSchema).",
      { cause: error },
    );
  }
  if (!isPlainObject(converted)) throw new TypeError(`${where}: the schema's JSON Schema is not an object`);
  return converted;
}

/**
 * Compiles a user schema once: its JSON Schema (the `side` that is advertised) and its validator;
 * a raw JSON Schema is validated by the engine `engine` names (default `"auto"`).
 *
 * @throws TypeError (message starting with `where`) for anything that is neither a Standard Schema
 *   nor a JSON Schema object, a Standard Schema that cannot produce JSON Schema, or a raw JSON Schema
 *   ajv refuses (see {@link compileJsonSchema}: when the JSON Schema engines have not loaded yet,
 *   that last refusal comes from `validate` instead, once they have).
 */
export function compileSchema<T = unknown>(
  schema: unknown,
  side: SchemaSide,
  where: string,
  engine: JsonSchemaValidator = DEFAULT_JSON_SCHEMA_VALIDATOR,
): CompiledSchema<T> {
  if (isStandardSchema(schema)) {
    const jsonSchema = deepFreeze(structuredClone(convertStandard(schema, side, where)));
    return {
      jsonSchema,
      validate: (value) =>
        validateStandard(schema, value) as ValidationResult<T> | Promise<ValidationResult<T>>,
    };
  }
  if (!isPlainObject(schema)) {
    throw new TypeError(`${where} must be a zod schema, a Standard Schema, or a JSON Schema object`);
  }
  const validator = compileJsonSchema(schema, where, engine);
  const outcome = (value: unknown, issues: readonly SchemaIssue[] | undefined): ValidationResult<T> =>
    issues === undefined ? { ok: true, value: value as T } : { ok: false, issues };
  return {
    jsonSchema: deepFreeze(structuredClone(schema)),
    validate(value) {
      const issues = validator(value);
      return issues instanceof Promise
        ? issues.then((found) => outcome(value, found))
        : outcome(value, issues);
    },
  };
}

/**
 * Checks that a JSON Schema describes an object (`type: "object"` at the root), as tool input
 * schemas and prompt argument schemas must.
 *
 * @throws TypeError naming `where` otherwise.
 */
export function requireObjectRoot(jsonSchema: JsonSchemaObject, where: string): void {
  if (jsonSchema.type !== "object") {
    throw new TypeError(
      `${where} must describe an object (its JSON Schema root needs type: "object"), got type ${JSON.stringify(jsonSchema.type)}`,
    );
  }
}

/**
 * The same object schema without the named properties (from `properties` and `required`), for
 * parameters the server fills itself and clients must not see. Returns a new, frozen schema; the
 * given one is unchanged. With no names, returns `jsonSchema` itself.
 */
export function withoutProperties(jsonSchema: JsonSchemaObject, names: readonly string[]): JsonSchemaObject {
  if (names.length === 0) return jsonSchema;
  const copy = structuredClone(jsonSchema) as Record<string, unknown>;
  if (isPlainObject(copy.properties)) {
    for (const name of names) delete copy.properties[name];
  }
  if (Array.isArray(copy.required)) {
    copy.required = copy.required.filter((name) => !names.includes(name as string));
  }
  return deepFreeze(copy);
}
