/**
 * Raw JSON Schema objects as user schemas: compiled once with ajv v8 in the 2020-12 dialect (the
 * MCP default), or interpreted where the runtime forbids code generation (see
 * `JsonSchemaValidator`), never fetching a network `$ref`, and their validation errors reduced to
 * field paths. Spec: basic/index §JSON Schema Usage (2020-12 default, no auto-dereferenced network
 * `$ref`, unsupported dialects answered with an error). The engines themselves load on the first
 * raw JSON Schema (`json-schema-loader.ts`); this module imports none of them.
 */
import type { JsonValidator, SchemaIssue } from "./issues.js";
import { isPlainObject } from "./json.js";
import { loadedJsonSchemaEngines, loadJsonSchemaEngines } from "./json-schema-loader.js";
import {
  DEFAULT_JSON_SCHEMA_VALIDATOR,
  type JsonSchemaValidator,
  resolveJsonSchemaValidator,
} from "./validator-choice.js";

export type { JsonValidator } from "./issues.js";

/** A JSON Schema given as a plain object (`{ type: "object", properties: { ... } }`). */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** The dialect URIs accepted in `$schema`: 2020-12, which is also the default when absent. */
export const SUPPORTED_JSON_SCHEMA_DIALECTS: readonly string[] = Object.freeze([
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
]);

/**
 * A raw JSON Schema validator that may still be waiting for the engines: it answers synchronously
 * once they have loaded, with a promise before; after a refused compile it throws the refusal.
 */
export type DeferredJsonValidator = (
  value: unknown,
) => readonly SchemaIssue[] | undefined | Promise<readonly SchemaIssue[] | undefined>;

/**
 * Compiles a raw JSON Schema into a validator, with ajv or the interpreter as `validator` says
 * (default `"auto"`: ajv unless the runtime forbids code generation). The engines load on demand
 * (see `preloadJsonSchemaEngines`): once loaded, the schema compiles here and every refusal below
 * is thrown here; before, this call starts the load, checks the object and its dialect, and the
 * returned validator compiles the schema when the engines arrive (answering with a promise until
 * then, and throwing the refusal, if any, after).
 *
 * @throws TypeError when `schema` is not an object, declares a `$schema` dialect other than
 *   2020-12; once the engines have loaded, also when it is not a valid 2020-12 schema, has a `pattern` (or `patternProperties` key, or a
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
): DeferredJsonValidator {
  checkSchemaObject(schema, where);
  const engine = resolveJsonSchemaValidator(validator);
  const engines = loadedJsonSchemaEngines();
  if (engines !== undefined) return engines.compileWithEngine(schema, where, engine);
  // The engines load on this first raw schema; it compiles when they arrive, from a private copy
  // (the caller may change its object meanwhile).
  const copy = structuredClone(schema as JsonSchemaObject);
  let compiled: JsonValidator | undefined;
  let refusal: { readonly error: unknown } | undefined;
  const ready = loadJsonSchemaEngines().then((loaded) => {
    compiled = loaded.compileWithEngine(copy, where, engine);
    return compiled;
  });
  ready.then(undefined, (error: unknown) => {
    refusal = { error };
  });
  return (value) => {
    if (compiled !== undefined) return compiled(value);
    if (refusal !== undefined) throw refusal.error;
    return ready.then((validate) => validate(value));
  };
}

/**
 * Compiles a raw JSON Schema now, with the engines already loaded (`preloadJsonSchemaEngines`),
 * into a validator that always answers synchronously.
 *
 * @throws TypeError when the engines have not loaded (the message starts with `where` and names
 *   `preloadJsonSchemaEngines`), or for every refusal of {@link compileJsonSchema}.
 */
export function compileLoadedJsonSchema(
  schema: unknown,
  where: string,
  validator: JsonSchemaValidator = DEFAULT_JSON_SCHEMA_VALIDATOR,
): JsonValidator {
  checkSchemaObject(schema, where);
  const engines = loadedJsonSchemaEngines();
  if (engines === undefined) {
    throw new TypeError(
      `${where}: a raw JSON Schema needs the JSON Schema engines loaded in this process; ` +
        "await preloadJsonSchemaEngines() at start-up, or pass a zod schema",
    );
  }
  return engines.compileWithEngine(schema, where, resolveJsonSchemaValidator(validator));
}

/** Refuses what is not a JSON Schema object or declares a dialect other than 2020-12. */
function checkSchemaObject(schema: unknown, where: string): asserts schema is JsonSchemaObject {
  if (!isPlainObject(schema)) throw new TypeError(`${where} must be a JSON Schema object`);
  const dialect = schema.$schema;
  if (dialect !== undefined && !SUPPORTED_JSON_SCHEMA_DIALECTS.includes(dialect as string)) {
    throw new TypeError(
      `${where} declares the JSON Schema dialect ${JSON.stringify(dialect)}; only 2020-12 ` +
        `(${SUPPORTED_JSON_SCHEMA_DIALECTS[0]}, the default when $schema is absent) is supported`,
    );
  }
}
