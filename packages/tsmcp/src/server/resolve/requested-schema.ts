/**
 * Rendering a form's schema for the wire: a JSON Schema (as a zod / Standard Schema converts it, or
 * as given raw) becomes the flat `requestedSchema` of an elicitation, or is refused with a
 * `TypeError` naming the property the wire cannot express. Spec: client/elicitation §Requested
 * Schema (primitive properties only: string, number, integer, boolean, single and multi-select enums).
 */
import type { PrimitiveSchemaDefinition, RequestedSchema } from "../../protocol/schema/input.js";
import { isPlainObject } from "../schema/json.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";

/** The string formats a form may ask for. */
export const FORM_STRING_FORMATS: readonly string[] = Object.freeze(["email", "uri", "date", "date-time"]);

/** Keywords that describe a property without constraining its value; dropped from the rendering. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Root keywords besides `type`, `properties` and `required` that are dropped. */
const ROOT_DROPPED = new Set([...ANNOTATIONS, "title", "description", "additionalProperties"]);

type Definition = Record<string, unknown>;

function fail(where: string, property: string, why: string): never {
  throw new TypeError(`${where}: property '${property}' ${why}; a form's requestedSchema is flat`);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** `[{ const, title }]` options of a titled enum (`oneOf` / `anyOf` of string constants), or undefined. */
function titledOptions(value: unknown): { const: string; title: string }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const options: { const: string; title: string }[] = [];
  for (const option of value) {
    if (!isPlainObject(option) || typeof option.const !== "string" || typeof option.title !== "string") {
      return undefined;
    }
    if (option.type !== undefined && option.type !== "string") return undefined;
    options.push({ const: option.const, title: option.title });
  }
  return options;
}

/** Copies the keywords of `allowed` (in that order) from `source`, refusing any other constraint. */
function pick(
  source: Definition,
  allowed: Readonly<Record<string, (value: unknown) => boolean>>,
  where: string,
  property: string,
  consumed: ReadonlySet<string>,
): Definition {
  for (const keyword of Object.keys(source)) {
    if (ANNOTATIONS.has(keyword) || consumed.has(keyword) || Object.hasOwn(allowed, keyword)) continue;
    fail(where, property, `uses "${keyword}", which a form cannot express`);
  }
  const out: Definition = {};
  for (const [keyword, check] of Object.entries(allowed)) {
    const value = source[keyword];
    if (value === undefined) continue;
    if (!check(value)) fail(where, property, `has an invalid "${keyword}"`);
    out[keyword] = structuredClone(value);
  }
  return out;
}

const isString = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const described = { title: isString, description: isString };

function renderString(definition: Definition, where: string, property: string): Definition {
  if (definition.enum !== undefined) {
    if (!isStringArray(definition.enum) || definition.enum.length === 0) {
      fail(where, property, "has an enum that is not a non-empty list of strings");
    }
    return pick(
      definition,
      { type: isString, ...described, enum: isStringArray, enumNames: isStringArray, default: isString },
      where,
      property,
      new Set(),
    );
  }
  const format = definition.format;
  if (format !== undefined && !FORM_STRING_FORMATS.includes(format as string)) {
    fail(
      where,
      property,
      `has the format ${JSON.stringify(format)}; a form supports ${FORM_STRING_FORMATS.join(", ")}`,
    );
  }
  // A format implies its own pattern (zod emits one for email, date, date-time); the format says it.
  const consumed = new Set(format === undefined ? [] : ["pattern"]);
  return pick(
    definition,
    {
      type: isString,
      ...described,
      minLength: isCount,
      maxLength: isCount,
      format: isString,
      default: isString,
    },
    where,
    property,
    consumed,
  );
}

function renderTitledSingle(
  definition: Definition,
  options: { const: string; title: string }[],
  where: string,
  property: string,
): Definition {
  const out = pick(
    definition,
    { ...described, default: isString },
    where,
    property,
    new Set(["type", "oneOf", "anyOf"]),
  );
  return { type: "string", ...out, oneOf: options };
}

function renderMultiSelect(definition: Definition, where: string, property: string): Definition {
  const items = definition.items;
  if (!isPlainObject(items)) fail(where, property, "is an array without enum items");
  let renderedItems: Definition;
  const titled = titledOptions(items.anyOf ?? items.oneOf);
  if (titled !== undefined) {
    renderedItems = { anyOf: titled };
  } else if (items.type === "string" && isStringArray(items.enum) && items.enum.length > 0) {
    renderedItems = { type: "string", enum: [...items.enum] };
  } else {
    fail(
      where,
      property,
      "is an array whose items are not an enum of strings (only multi-select enums are allowed)",
    );
  }
  const out = pick(
    definition,
    { type: isString, ...described, minItems: isCount, maxItems: isCount, default: isStringArray },
    where,
    property,
    new Set(["items"]),
  );
  return { ...out, items: renderedItems };
}

function renderProperty(definition: unknown, where: string, property: string): PrimitiveSchemaDefinition {
  if (!isPlainObject(definition)) fail(where, property, "is not a schema object");
  const titled =
    definition.type === undefined || definition.type === "string"
      ? titledOptions(definition.oneOf ?? definition.anyOf)
      : undefined;
  if (titled !== undefined)
    return renderTitledSingle(definition, titled, where, property) as PrimitiveSchemaDefinition;
  switch (definition.type) {
    case "string":
      return renderString(definition, where, property) as PrimitiveSchemaDefinition;
    case "number":
    case "integer":
      return pick(
        definition,
        { type: isString, ...described, minimum: isNumber, maximum: isNumber, default: isNumber },
        where,
        property,
        new Set(),
      ) as PrimitiveSchemaDefinition;
    case "boolean":
      return pick(
        definition,
        { type: isString, ...described, default: (value) => typeof value === "boolean" },
        where,
        property,
        new Set(),
      ) as PrimitiveSchemaDefinition;
    case "array":
      return renderMultiSelect(definition, where, property) as PrimitiveSchemaDefinition;
    default:
      return fail(
        where,
        property,
        `has type ${JSON.stringify(definition.type)}; a form property is a string, number, integer, boolean or an enum`,
      );
  }
}

/**
 * Renders `jsonSchema` as a form's `requestedSchema`: `{ type: "object", properties, required? }`
 * with each property reduced to the keywords its spec definition has (type, title, description,
 * default; minLength / maxLength / format for strings; minimum / maximum for numbers; enum /
 * enumNames, titled `oneOf`, or multi-select `items` with minItems / maxItems). Annotations such as
 * `$schema` and `examples` are dropped; a titled `anyOf` of string constants renders as `oneOf`.
 * Returns a new object; `jsonSchema` is not modified. Spec: client/elicitation §Requested Schema.
 *
 * @throws TypeError (message starting with `where`, naming the property) for a root that is not a
 *   plain `type: "object"` schema, or any property that is nested, nullable, or constrained in a way
 *   a form cannot express (`pattern` without a format, `exclusiveMinimum`, `multipleOf`, `const`, ...).
 */
export function toRequestedSchema(jsonSchema: JsonSchemaObject, where: string): RequestedSchema {
  if (jsonSchema.type !== "object" || !isPlainObject(jsonSchema.properties ?? {})) {
    throw new TypeError(`${where}: a form's schema must be an object schema with properties`);
  }
  for (const keyword of Object.keys(jsonSchema)) {
    if (keyword === "type" || keyword === "properties" || keyword === "required") continue;
    if (!ROOT_DROPPED.has(keyword)) {
      throw new TypeError(
        `${where}: a form's schema cannot use "${keyword}" at its root; a form's requestedSchema is flat`,
      );
    }
  }
  const extra = jsonSchema.additionalProperties;
  if (extra !== undefined && typeof extra !== "boolean") {
    throw new TypeError(`${where}: a form's schema cannot describe additional properties`);
  }
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, definition] of Object.entries((jsonSchema.properties ?? {}) as Record<string, unknown>)) {
    Object.defineProperty(properties, name, {
      value: renderProperty(definition, where, name),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const required = jsonSchema.required;
  if (
    required !== undefined &&
    (!isStringArray(required) || required.some((name) => !Object.hasOwn(properties, name)))
  ) {
    throw new TypeError(`${where}: "required" must list properties of the form`);
  }
  const rendered: RequestedSchema = { type: "object", properties };
  if (required !== undefined && required.length > 0) rendered.required = [...required];
  return rendered;
}
