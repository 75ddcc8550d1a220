/**
 * Raw JSON Schema objects as user schemas: compiled once with ajv v8 in the 2020-12 dialect (the
 * MCP default), or interpreted where the runtime forbids code generation (see
 * `JsonSchemaValidator`), never fetching a network `$ref`, and their validation errors reduced to
 * field paths. Spec: basic/index §JSON Schema Usage (2020-12 default, no auto-dereferenced network
 * `$ref`, unsupported dialects answered with an error).
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { JsonValidator } from "./issues.js";
import { isPlainObject } from "./json.js";
import { interpretJsonSchema } from "./json-schema-interpreted.js";
import { linearRegExp } from "./linear-regexp.js";
import { checkReferenceCycles } from "./schema-shape.js";
import { UNIQUE_ITEMS_KEYWORD } from "./unique-items.js";
import {
  DEFAULT_JSON_SCHEMA_VALIDATOR,
  type JsonSchemaValidator,
  resolveJsonSchemaValidator,
} from "./validator-choice.js";

/** A JSON Schema given as a plain object (`{ type: "object", properties: { ... } }`). */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** The dialect URIs accepted in `$schema`: 2020-12, which is also the default when absent. */
export const SUPPORTED_JSON_SCHEMA_DIALECTS: readonly string[] = Object.freeze([
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
]);

export type { JsonValidator } from "./issues.js";

let sharedAjv: Ajv2020 | undefined;

/**
 * The one ajv instance of the process, built on the first raw JSON Schema compile (building it
 * costs CPU that a server without raw schemas never needs to spend at import). `addUsedSchema:
 * false` keeps compiled schemas out of its registry (two tools may reuse an `$id`), no
 * `loadSchema` means a `$ref` to anything but the schema itself fails to compile instead of being
 * fetched, and nothing mutates the validated value. Every pattern is evaluated in linear time
 * (see `linearRegExp`). `required` and the other property checks look at own properties only, so
 * `required: ["constructor"]` is not met by `{}`. `uniqueItems` hashes the items (see
 * `UNIQUE_ITEMS_KEYWORD`) instead of the built-in pairwise comparison of untyped items.
 */
function ajv(): Ajv2020 {
  if (sharedAjv === undefined) {
    sharedAjv = new Ajv2020({
      strict: false,
      allErrors: false,
      validateFormats: false,
      addUsedSchema: false,
      logger: false,
      ownProperties: true,
      code: { regExp: linearRegExp },
    });
    sharedAjv.removeKeyword("uniqueItems");
    sharedAjv.addKeyword(UNIQUE_ITEMS_KEYWORD as never);
  }
  return sharedAjv;
}

function pathOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params as {
    missingProperty?: unknown;
    additionalProperty?: unknown;
    unevaluatedProperty?: unknown;
  };
  const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  if (typeof property === "string") segments.push(property);
  return segments.join(".");
}

/**
 * Compiles a raw JSON Schema into a validator, with ajv or the interpreter as `validator` says
 * (default `"auto"`: ajv unless the runtime forbids code generation).
 *
 * @throws TypeError when `schema` is not an object, declares a `$schema` dialect other than
 *   2020-12, is not a valid 2020-12 schema, has a `pattern` (or `patternProperties` key, or a
 *   pattern under `propertyNames`) that a linear-time engine cannot express (backreferences,
 *   lookaround; the message quotes the pattern), has a `$ref` it cannot resolve locally
 *   (network references are never fetched), or has a `$ref` that leads back to itself without
 *   descending into the value (`$defs: { a: { $ref: "#/$defs/a" } }`: no value could ever be
 *   validated). The message starts with `where`. `"compiled"` where
 *   the runtime forbids code generation throws a TypeError saying so.
 */
export function compileJsonSchema(
  schema: unknown,
  where: string,
  validator: JsonSchemaValidator = DEFAULT_JSON_SCHEMA_VALIDATOR,
): JsonValidator {
  if (!isPlainObject(schema)) throw new TypeError(`${where} must be a JSON Schema object`);
  const dialect = schema.$schema;
  if (dialect !== undefined && !SUPPORTED_JSON_SCHEMA_DIALECTS.includes(dialect as string)) {
    throw new TypeError(
      `${where} declares the JSON Schema dialect ${JSON.stringify(dialect)}; only 2020-12 ` +
        `(${SUPPORTED_JSON_SCHEMA_DIALECTS[0]}, the default when $schema is absent) is supported`,
    );
  }
  if (resolveJsonSchemaValidator(validator) === "interpreted") return interpretJsonSchema(schema, where);
  let validate: ReturnType<Ajv2020["compile"]>;
  try {
    validate = ajv().compile(schema);
  } catch (error) {
    // ajv caches a schema before checking it against the meta-schema: without this, registering
    // the same object again would skip the check and compile it.
    ajv().removeSchema(schema);
    throw new TypeError(`${where} is not a usable JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkReferenceCycles(schema, where);
  return (value) => {
    if (validate(value)) return undefined;
    return (validate.errors ?? []).map((error) => ({
      path: pathOf(error),
      message: error.message ?? "is invalid",
    }));
  };
}
