/**
 * Raw JSON Schema validation without code generation, for runtimes that forbid evaluating strings
 * (Cloudflare Workers, strict Content-Security-Policy): `@cfworker/json-schema` walks a private
 * copy of the schema in the 2020-12 dialect. It keeps the rules of the compiled (ajv) path:
 * `format` is an annotation only, a `$ref` resolves within the schema or not at all (nothing is
 * fetched), and every `pattern` and `patternProperties` key runs on the linear-time engine, never
 * on a backtracking one. Spec: basic/index §JSON Schema Usage.
 */
import {
  type OutputUnit,
  dereference as registerSubschemas,
  type Schema,
  validate as walk,
} from "@cfworker/json-schema";
import type { RegExpLike } from "ajv/dist/types/index.js";
import { isPlainObject } from "./json.js";
import type { JsonValidator } from "./json-schema.js";
import { linearRegExp } from "./linear-regexp.js";

/** Keywords whose value is JSON data, never a subschema. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "required", "dependentRequired"]);
/** Keywords whose value maps names to subschemas. */
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

interface Prepared {
  readonly schema: Schema;
  readonly patterns: Map<string, RegExpLike>;
}

function fail(where: string, problem: string): never {
  throw new TypeError(`${where} is not a usable JSON Schema: ${problem}`);
}

function compilePattern(where: string, pattern: string, patterns: Map<string, RegExpLike>): void {
  if (patterns.has(pattern)) return;
  try {
    patterns.set(pattern, linearRegExp(pattern, "u"));
  } catch (error) {
    throw new TypeError(`${where} is not a usable JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Copies a schema (or a subschema) for the walker: drops `format` (an annotation here, as on the
 * compiled path), compiles every pattern for the linear-time engine, and checks what the walker
 * would otherwise only notice while validating (type names, `$dynamicRef`).
 */
function prepare(node: unknown, where: string, patterns: Map<string, RegExpLike>): unknown {
  if (Array.isArray(node)) return node.map((item) => prepare(item, where, patterns));
  if (!isPlainObject(node)) return node;
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === "format" && typeof value === "string") continue;
    if (DATA_KEYWORDS.has(keyword)) {
      copy[keyword] = structuredClone(value);
    } else if (MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, subschema] of Object.entries(value)) {
        if (keyword === "patternProperties") compilePattern(where, name, patterns);
        map[name] = prepare(subschema, where, patterns);
      }
      copy[keyword] = map;
    } else {
      copy[keyword] = prepare(value, where, patterns);
    }
  }
  if (typeof copy.pattern === "string") compilePattern(where, copy.pattern, patterns);
  const types = Array.isArray(copy.type) ? copy.type : copy.type === undefined ? [] : [copy.type];
  for (const type of types) {
    if (typeof type !== "string" || !TYPES.has(type))
      fail(where, `type must be a JSON type name, got ${JSON.stringify(type)}`);
  }
  if (copy.$dynamicRef !== undefined) fail(where, "$dynamicRef needs the compiled validator");
  return copy;
}

/** Every `$ref` must name a subschema of this schema: nothing is fetched. */
function checkReferences(node: unknown, lookup: Record<string, unknown>, where: string): void {
  if (Array.isArray(node)) {
    for (const item of node) checkReferences(item, lookup, where);
    return;
  }
  if (!isPlainObject(node)) return;
  const target = (node as Schema).__absolute_ref__;
  if (typeof node.$ref === "string" && (target === undefined || lookup[target] === undefined)) {
    fail(where, `can't resolve reference ${node.$ref}`);
  }
  for (const [keyword, value] of Object.entries(node)) {
    if (!DATA_KEYWORDS.has(keyword)) checkReferences(value, lookup, where);
  }
}

/**
 * Runs `validate` with the global `RegExp` standing for the schema's precompiled linear-time
 * patterns: the walker builds `new RegExp(pattern, "u")` for `pattern` and `patternProperties`,
 * and this is the one seam that routes them off V8's backtracking engine. Validation is
 * synchronous, so nothing else runs while the stand-in is installed; it is removed before returning
 * or throwing.
 */
function withLinearPatterns<T>(patterns: Map<string, RegExpLike>, validate: () => T): T {
  const native = globalThis.RegExp;
  const linear = function LinearPattern(pattern: string): RegExpLike {
    const compiled = patterns.get(String(pattern));
    // Every pattern was compiled with the schema; one that was not must not reach V8's engine.
    if (compiled === undefined) throw new TypeError(`unexpected pattern ${JSON.stringify(pattern)}`);
    return compiled;
  };
  globalThis.RegExp = linear as unknown as RegExpConstructor;
  try {
    return validate();
  } finally {
    globalThis.RegExp = native;
  }
}

function decodeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A segment that is not percent-encoding stays as written.
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

function segmentsOf(location: string): string[] {
  return location === "#" ? [] : location.slice(2).split("/").map(decodeSegment);
}

/** The schema value at an output unit's keyword location, following `$ref` hops. */
function keywordValue(root: Schema, lookup: Record<string, unknown>, location: string): unknown {
  let node: unknown = root;
  for (const segment of segmentsOf(location)) {
    if (typeof node !== "object" || node === null) return undefined;
    node =
      segment === "$ref"
        ? lookup[(node as Schema).__absolute_ref__ ?? ""]
        : (node as Record<string, unknown>)[segment];
  }
  return node;
}

const WRAPPERS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "$ref",
  "$recursiveRef",
  "allOf",
  "anyOf",
  "oneOf",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
]);

const COMPARISONS: Record<string, string> = {
  minimum: ">=",
  maximum: "<=",
  exclusiveMinimum: ">",
  exclusiveMaximum: "<",
};
const COUNTS: Record<string, [string, string]> = {
  minLength: ["fewer", "characters"],
  maxLength: ["more", "characters"],
  minItems: ["fewer", "items"],
  maxItems: ["more", "items"],
  minProperties: ["fewer", "properties"],
  maxProperties: ["more", "properties"],
};

/** One issue per failed validation, worded as the compiled path words it for the same keyword. */
function issueOf(
  errors: readonly OutputUnit[],
  root: Schema,
  lookup: Record<string, unknown>,
): { path: string; message: string } {
  const index = Math.max(
    errors.findIndex((error) => !WRAPPERS.has(error.keyword)),
    0,
  );
  const error = errors[index] as OutputUnit;
  // A property name's problem belongs to the object holding it, as the compiled path reports it.
  const holder = errors[index - 1]?.keyword === "propertyNames" ? errors[index - 1] : error;
  const path = segmentsOf((holder as OutputUnit).instanceLocation);
  const value = () => keywordValue(root, lookup, error.keywordLocation);
  const { keyword } = error;
  let message = error.error;
  if (keyword === "type") {
    const type = value();
    message = `must be ${Array.isArray(type) ? type.join(",") : String(type)}`;
  } else if (keyword === "required") {
    const missing = /required property "(.*)"\.$/s.exec(error.error)?.[1];
    if (missing !== undefined) path.push(missing);
    message = `must have required property '${missing}'`;
  } else if (keyword === "dependentRequired") {
    const [, present, missing] = /has "(.*)" but does not have "(.*)"\.$/s.exec(error.error) ?? [];
    if (missing !== undefined) path.push(missing);
    message = `must have property ${missing} when property ${present} is present`;
  } else if (keyword === "uniqueItems") {
    const [, first, second] = /indexes (\d+) and (\d+)/.exec(error.error) ?? [];
    message = `must NOT have duplicate items (items ## ${first} and ${second} are identical)`;
  } else if (keyword === "contains") {
    const minContains = keywordValue(root, lookup, `${error.keywordLocation.slice(0, -8)}minContains`);
    message = `must contain at least ${String(minContains ?? 1)} valid item(s)`;
  } else if (keyword === "false") {
    const parent = errors[index - 1];
    if (parent?.keyword === "items") {
      // items: false after prefixItems: the array is longer than its prefix.
      const prefix = keywordValue(root, lookup, `${parent.keywordLocation.slice(0, -5)}prefixItems`);
      path.splice(0, path.length, ...segmentsOf(parent.instanceLocation));
      message = `must NOT have more than ${Array.isArray(prefix) ? prefix.length : 0} items`;
    } else {
      message =
        parent?.keyword === "additionalProperties"
          ? "must NOT have additional properties"
          : parent?.keyword === "unevaluatedProperties"
            ? "must NOT have unevaluated properties"
            : "boolean schema is false";
    }
  } else if (keyword === "pattern") {
    message = `must match pattern "${String(value())}"`;
  } else if (keyword === "enum") {
    message = "must be equal to one of the allowed values";
  } else if (keyword === "const") {
    message = "must be equal to constant";
  } else if (keyword === "not") {
    message = "must NOT be valid";
  } else if (keyword === "multipleOf") {
    message = `must be multiple of ${String(value())}`;
  } else if (keyword in COMPARISONS) {
    message = `must be ${COMPARISONS[keyword]} ${String(value())}`;
  } else if (keyword in COUNTS) {
    const [which, unit] = COUNTS[keyword] as [string, string];
    message = `must NOT have ${which} than ${String(value())} ${unit}`;
  }
  return { path: path.join("."), message };
}

/**
 * Builds an interpreting validator for a raw JSON Schema already checked to be an object in the
 * 2020-12 dialect. The caller's schema is not modified (the walker annotates its own copy).
 *
 * @throws TypeError (message starting with `where`) for a `type` that is not a JSON type name, a
 *   `$ref` that does not resolve inside the schema, a `$dynamicRef`, or a pattern that is not an
 *   ECMA-262 regular expression or that the linear-time engine cannot express.
 */
export function interpretJsonSchema(schema: Record<string, unknown>, where: string): JsonValidator {
  const patterns = new Map<string, RegExpLike>();
  const prepared: Prepared = { schema: prepare(schema, where, patterns) as Schema, patterns };
  let lookup: Record<string, unknown>;
  try {
    lookup = registerSubschemas(prepared.schema) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`${where} is not a usable JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkReferences(prepared.schema, lookup, where);
  const run = (value: unknown) => walk(value, prepared.schema, "2020-12", lookup as never, true);
  return (value) => {
    let result: ReturnType<typeof run>;
    try {
      result = patterns.size === 0 ? run(value) : withLinearPatterns(patterns, () => run(value));
    } catch (error) {
      // The walker throws for a value that is not JSON (undefined, a function, a bigint).
      return [{ path: "", message: `must be JSON data (${(error as Error).message})` }];
    }
    return result.valid ? undefined : [issueOf(result.errors, prepared.schema, lookup)];
  };
}
