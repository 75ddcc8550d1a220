/**
 * Registration checks the interpreted validator needs because it has no meta-schema pass: each
 * keyword's value has the shape the 2020-12 meta-schema gives it (ajv checks this with the
 * meta-schema on the compiled path, so both refuse the same schemas), and no `$ref` leads back to
 * itself without descending into the value (for both engines: such a schema can validate nothing,
 * every call would overflow the stack). Spec: JSON Schema 2020-12 Core §8.2.3 (`$ref`), the 2020-12
 * meta-schemas (applicator, validation, core vocabularies).
 */
import { dereference as registerSubschemas, type Schema } from "@cfworker/json-schema";
import { isPlainObject } from "./json.js";

/** Keywords whose value is one subschema (2020-12 applicator vocabulary). */
export const SUBSCHEMA_KEYWORDS = [
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "contains",
  "unevaluatedItems",
  "not",
  "if",
  "then",
  "else",
] as const;
/** Keywords whose value is a non-empty array of subschemas. */
export const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
] as const;

type Shape = (value: unknown) => boolean;

const isSchema: Shape = (value) => isPlainObject(value) || typeof value === "boolean";
const isSchemaArray: Shape = (value) => Array.isArray(value) && value.length > 0 && value.every(isSchema);
const isSchemaMap: Shape = (value) => isPlainObject(value) && Object.values(value).every(isSchema);
const isString: Shape = (value) => typeof value === "string";
const isNumber: Shape = (value) => typeof value === "number" && Number.isFinite(value);
const isCount: Shape = (value) => Number.isInteger(value) && (value as number) >= 0;
const isStringArray: Shape = (value) => Array.isArray(value) && value.every(isString);

/** Each checked keyword's shape, worded as the compiled path's meta-schema error words it. */
const SHAPES: Readonly<Record<string, readonly [Shape, string]>> = {
  ...Object.fromEntries(SUBSCHEMA_KEYWORDS.map((keyword) => [keyword, [isSchema, "must be object,boolean"]])),
  ...Object.fromEntries(
    SUBSCHEMA_ARRAY_KEYWORDS.map((keyword) => [
      keyword,
      [isSchemaArray, "must be a non-empty array of schemas"],
    ]),
  ),
  ...Object.fromEntries(
    SUBSCHEMA_MAP_KEYWORDS.map((keyword) => [keyword, [isSchemaMap, "must be an object of schemas"]]),
  ),
  ...Object.fromEntries(
    ["pattern", "$ref", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "format"].map(
      (keyword) => [keyword, [isString, "must be string"]],
    ),
  ),
  ...Object.fromEntries(
    ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"].map((keyword) => [
      keyword,
      [isNumber, "must be number"],
    ]),
  ),
  multipleOf: [(value) => isNumber(value) && (value as number) > 0, "must be > 0"],
  ...Object.fromEntries(
    [
      "maxLength",
      "minLength",
      "maxItems",
      "minItems",
      "maxContains",
      "minContains",
      "maxProperties",
      "minProperties",
    ].map((keyword) => [keyword, [isCount, "must be a non-negative integer"]]),
  ),
  uniqueItems: [(value) => typeof value === "boolean", "must be boolean"],
  required: [isStringArray, "must be an array of strings"],
  dependentRequired: [
    (value) => isPlainObject(value) && Object.values(value).every(isStringArray),
    "must be an object of string arrays",
  ],
  dependencies: [
    (value) =>
      isPlainObject(value) && Object.values(value).every((entry) => isSchema(entry) || isStringArray(entry)),
    "must be an object of schemas or string arrays",
  ],
  enum: [Array.isArray, "must be array"],
  examples: [Array.isArray, "must be array"],
};

/**
 * Refuses a schema object whose keywords have values of the wrong shape (`pattern: ["^a"]`,
 * `exclusiveMinimum: true`, `examples: {}`), as the meta-schema does on the compiled path.
 *
 * @throws TypeError starting with `where`, naming the keyword's location and the shape it needs.
 */
export function checkKeywordShapes(node: Record<string, unknown>, location: string, where: string): void {
  for (const [keyword, value] of Object.entries(node)) {
    const shape = Object.hasOwn(SHAPES, keyword) ? SHAPES[keyword] : undefined;
    if (shape !== undefined && !shape[0](value)) {
      throw new TypeError(
        `${where} is not a usable JSON Schema: schema is invalid: data${location}/${keyword} ${shape[1]}`,
      );
    }
  }
}

/** Keywords that apply their subschemas to the same value as the schema holding them. */
const SAME_VALUE = ["allOf", "anyOf", "oneOf"];
const SAME_VALUE_ONE = ["not", "if", "then", "else"];

function sameValueChildren(node: Schema, lookup: Record<string, unknown>): unknown[] {
  const children: unknown[] = [];
  if (typeof node.$ref === "string") children.push(lookup[node.__absolute_ref__ ?? ""]);
  for (const keyword of SAME_VALUE) {
    const list = (node as Record<string, unknown>)[keyword];
    if (Array.isArray(list)) children.push(...list);
  }
  for (const keyword of SAME_VALUE_ONE) children.push((node as Record<string, unknown>)[keyword]);
  const dependent = (node as Record<string, unknown>).dependentSchemas;
  if (isPlainObject(dependent)) children.push(...Object.values(dependent));
  return children;
}

/**
 * Refuses a schema where following `$ref` (and the keywords that apply to the same value: `allOf`,
 * `anyOf`, `oneOf`, `not`, `if`, `then`, `else`, `dependentSchemas`) comes back to a schema already
 * on the way, which would recurse forever on every value. `lookup` maps absolute URIs to the
 * subschemas `@cfworker/json-schema`'s `dereference` registered.
 *
 * @throws TypeError starting with `where`, naming the `$ref` that closes the loop.
 */
export function refuseReferenceCycles(lookup: Record<string, unknown>, where: string): void {
  const state = new Map<object, "open" | "done">();
  const visit = (node: unknown): void => {
    if (!isPlainObject(node) || state.get(node) === "done") return;
    state.set(node, "open");
    for (const child of sameValueChildren(node as Schema, lookup)) {
      if (isPlainObject(child) && state.get(child) === "open") {
        const ref = typeof node.$ref === "string" ? node.$ref : (child as Schema).__absolute_uri__;
        throw new TypeError(
          `${where} is not a usable JSON Schema: the $ref ${String(ref)} leads back to itself ` +
            "without descending into the value",
        );
      }
      visit(child);
    }
    state.set(node, "done");
  };
  for (const node of Object.values(lookup)) visit(node);
}

/**
 * {@link refuseReferenceCycles} for a schema ajv already compiled (on a private copy: registering
 * annotates the nodes). A schema the interpreter's registry cannot read is left to ajv.
 */
export function checkReferenceCycles(schema: Record<string, unknown>, where: string): void {
  let lookup: Record<string, unknown>;
  try {
    lookup = registerSubschemas(structuredClone(schema) as Schema) as Record<string, unknown>;
  } catch {
    return;
  }
  refuseReferenceCycles(lookup, where);
}
