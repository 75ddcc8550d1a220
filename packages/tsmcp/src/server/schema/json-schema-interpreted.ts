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
import type { JsonValidator } from "./issues.js";
import { isPlainObject } from "./json.js";
import { linearRegExp } from "./linear-regexp.js";
import {
  checkKeywordShapes,
  refuseReferenceCycles,
  SUBSCHEMA_ARRAY_KEYWORDS,
  SUBSCHEMA_KEYWORDS,
  SUBSCHEMA_MAP_KEYWORDS,
} from "./schema-shape.js";
import { canonicalId, duplicateOf, type Interned, scanArrays } from "./unique-items.js";

/** Keywords whose value is JSON data, never a subschema. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "required", "dependentRequired"]);
/** Keywords whose value maps names to subschemas (`dependencies` may also map to a string list). */
const MAP_KEYWORDS = new Set<string>([...SUBSCHEMA_MAP_KEYWORDS, "dependencies"]);
/** Keywords whose value is one subschema or an array of them. */
const SCHEMA_KEYWORDS = new Set<string>([...SUBSCHEMA_KEYWORDS, ...SUBSCHEMA_ARRAY_KEYWORDS]);
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** The pairs of items the interpreter may compare for `uniqueItems` in one validation. */
export const INTERPRETED_UNIQUE_ITEMS_PAIRS = 10_000_000;

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

interface Preparing {
  readonly where: string;
  readonly patterns: Map<string, RegExpLike>;
  /** Leave `uniqueItems` out of the copy (for values where no array holds equal items). */
  readonly dropUniqueItems: boolean;
}

/**
 * A null-prototype object: a `__proto__` key in the schema stays an own key of the copy instead of
 * becoming its prototype (whose keywords the walker would then read as inherited ones).
 */
function ownObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/**
 * Copies a schema (or a subschema) for the walker: drops `format` (an annotation here, as on the
 * compiled path), compiles every pattern for the linear-time engine, and checks what the walker
 * would otherwise only notice while validating (keyword shapes, type names, `$dynamicRef`). A
 * node under a keyword the walker does not know (`x-ui: {...}`) is not checked, but its patterns
 * are compiled: a `$ref` may point there.
 */
function prepare(node: unknown, location: string, checked: boolean, how: Preparing): unknown {
  if (Array.isArray(node))
    return node.map((item, index) => prepare(item, `${location}/${index}`, checked, how));
  if (!isPlainObject(node)) return node;
  const { where, patterns } = how;
  if (checked) checkKeywordShapes(node, location, where);
  const copy = ownObject();
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === "format" && typeof value === "string") continue;
    if (keyword === "uniqueItems" && how.dropUniqueItems) continue;
    const at = `${location}/${keyword}`;
    if (DATA_KEYWORDS.has(keyword)) {
      copy[keyword] = structuredClone(value);
    } else if (MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
      const map = ownObject();
      for (const [name, subschema] of Object.entries(value)) {
        if (keyword === "patternProperties") compilePattern(where, name, patterns);
        map[name] = prepare(subschema, `${at}/${name}`, checked, how);
      }
      copy[keyword] = map;
    } else {
      copy[keyword] = prepare(value, at, checked && SCHEMA_KEYWORDS.has(keyword), how);
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

/** A prepared copy with its registry of subschemas by absolute URI. */
interface Walkable {
  readonly schema: Schema;
  readonly lookup: Record<string, unknown>;
}

function walkable(schema: Record<string, unknown>, how: Preparing): Walkable {
  const copy = prepare(schema, "", true, how) as Schema;
  let lookup: Record<string, unknown>;
  try {
    lookup = registerSubschemas(copy) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`${how.where} is not a usable JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkReferences(copy, lookup, how.where);
  return { schema: copy, lookup };
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
/** The walker asked for a pattern the schema's registration did not compile. */
class UnexpectedPattern extends Error {
  constructor(pattern: string) {
    super(`the pattern ${JSON.stringify(pattern)} was not compiled with the schema`);
  }
}

function withLinearPatterns<T>(patterns: Map<string, RegExpLike>, validate: () => T): T {
  const native = globalThis.RegExp;
  const linear = function LinearPattern(pattern: string): RegExpLike {
    const compiled = patterns.get(String(pattern));
    // Every pattern was compiled with the schema; one that was not must not reach V8's engine.
    if (compiled === undefined) throw new UnexpectedPattern(String(pattern));
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
  instance: unknown,
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
    // The pair the compiled path names (the walker names the first pair it compares).
    let array: unknown = instance;
    for (const segment of path) array = (array as Record<string, unknown>)[segment];
    const ids: Interned = new Map();
    const [first, second] = Array.isArray(array)
      ? (duplicateOf(array.map((item) => canonicalId(item, ids))) ?? [])
      : [];
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
 * `uniqueItems` is checked in time near-linear in the value's size when no array in the value
 * holds two equal items (the usual, valid case: the walk then skips the keyword, which cannot fail).
 * When one does, the walk compares item pairs, so a value whose arrays hold more than
 * {@link INTERPRETED_UNIQUE_ITEMS_PAIRS} pairs in all (the sum of each array's length squared:
 * one array of about 3,100 items) is answered invalid with an issue saying it is too large to
 * check, even where the schema would accept it. The compiled validator has no such limit.
 *
 * @throws TypeError (message starting with `where`) for a keyword whose value has the wrong shape
 *   (`pattern: ["^a"]`, `exclusiveMinimum: true`, `examples: {}`: the meta-schema's rules), a
 *   `type` that is not a JSON type name, a `$ref` that does not resolve inside the schema, a `$ref`
 *   that leads back to itself without descending into the value, a `$dynamicRef`, or a pattern that
 *   is not an ECMA-262 regular expression or that the linear-time engine cannot express.
 */
export function interpretJsonSchema(schema: Record<string, unknown>, where: string): JsonValidator {
  const patterns = new Map<string, RegExpLike>();
  const full = walkable(schema, { where, patterns, dropUniqueItems: false });
  refuseReferenceCycles(full.lookup, where);
  const unique = JSON.stringify(schema).includes('"uniqueItems"')
    ? walkable(schema, { where, patterns, dropUniqueItems: true })
    : full;
  const run = ({ schema: copy, lookup }: Walkable, value: unknown) =>
    walk(value, copy, "2020-12", lookup as never, true);
  return (value) => {
    let chosen = full;
    let result: ReturnType<typeof run>;
    try {
      if (unique !== full) {
        const scan = scanArrays(value);
        if (!scan.hasDuplicates) chosen = unique;
        else if (scan.pairs > INTERPRETED_UNIQUE_ITEMS_PAIRS) {
          return [
            {
              path: "",
              message:
                `holds arrays too large to check uniqueItems without code generation ` +
                `(${scan.pairs} item pairs, at most ${INTERPRETED_UNIQUE_ITEMS_PAIRS})`,
            },
          ];
        }
      }
      // Installed on every walk, not only when the schema has patterns: a pattern the walker
      // meets that registration did not compile is refused, never run on V8's engine.
      result = withLinearPatterns(patterns, () => run(chosen, value));
    } catch (error) {
      if (error instanceof UnexpectedPattern)
        return [{ path: "", message: `cannot be checked: ${error.message}` }];
      // The walker throws for a value that is not JSON (undefined, a function, a bigint).
      return [{ path: "", message: `must be JSON data (${(error as Error).message})` }];
    }
    return result.valid ? undefined : [issueOf(result.errors, chosen.schema, chosen.lookup, value)];
  };
}
