/**
 * `x-mcp-header`, the rules shared by both sides: which tool parameters a tool's `inputSchema`
 * asks to have mirrored into `Mcp-Param-{Name}` headers, whether its annotations obey the rules
 * (a client drops a tool that breaks them; a server refuses to register one), and where each
 * parameter's value sits in a call's arguments. Pure: no I/O and no header codec (the encoding and
 * the server's check live in `transport/http/param-headers.ts`).
 * Spec: basic/transports/streamable-http §Custom Headers, server/tools §x-mcp-header.
 */

/** The annotation keyword in a tool's `inputSchema`. */
export const X_MCP_HEADER = "x-mcp-header";

/** The JSON Schema types a mirrored parameter may have. */
export type ParamHeaderType = "string" | "integer" | "boolean";

/** One annotated parameter of a tool. */
export interface ParamHeader {
  /** Property names from the schema root to the parameter, through `properties` only. */
  readonly path: readonly string[];
  /** The annotation's value: the header is `Mcp-Param-{name}`. */
  readonly name: string;
  /** The declared type of the parameter. */
  readonly type: ParamHeaderType;
}

/**
 * What a tool's annotations say: `valid` with the parameters to mirror (possibly none), or
 * `invalid` with the first rule broken (for the client's warning, or the server's registration error).
 */
export type ParamHeaderAnalysis =
  | { readonly kind: "valid"; readonly params: readonly ParamHeader[] }
  | { readonly kind: "invalid"; readonly reason: string };

/** RFC 9110 `token` (`1*tchar`): what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  "additionalProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
  "contentSchema",
  "items",
] as const;
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;
/** Keywords whose value maps names to subschemas (`properties` is walked on its own). */
const SCHEMA_MAP_KEYWORDS = ["$defs", "definitions", "patternProperties", "dependentSchemas"] as const;

/** Deeper schemas than this are refused rather than walked. */
const MAX_DEPTH = 64;

const PRIMITIVES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(path: readonly string[]): string {
  return path.length === 0
    ? "the schema root"
    : `/${path.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/**
 * The declared primitive type of an annotated property: `type` names exactly one of `string`,
 * `integer`, `boolean` (optionally alongside `"null"`, whose value is simply not mirrored).
 */
function primitiveType(schema: Record<string, unknown>): ParamHeaderType | undefined {
  const declared = schema.type;
  const types = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : [];
  const primitives = types.filter((t): t is ParamHeaderType => typeof t === "string" && PRIMITIVES.has(t));
  const others = types.filter((t) => t !== "null" && !(typeof t === "string" && PRIMITIVES.has(t)));
  return primitives.length === 1 && others.length === 0 ? primitives[0] : undefined;
}

/**
 * Checks a tool's `inputSchema` against the `x-mcp-header` rules and lists its mirrored
 * parameters. An annotation must be a non-empty RFC 9110 token (no space, colon, control or
 * non-ASCII character), unique case-insensitively within the schema, sit on a property typed
 * `string`, `integer` or `boolean` (not `number`, `object`, `array` or `null`), and be reachable
 * from the root through `properties` alone (nested objects allowed; not through `items`,
 * `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `$defs` and `$ref`, ...). Values of `const`,
 * `enum`, `default` and `examples` are data, not schemas, and are not searched. Never throws.
 * Spec: basic/transports/streamable-http §Custom Headers.
 */
export function analyzeParamHeaders(inputSchema: unknown): ParamHeaderAnalysis {
  const params: ParamHeader[] = [];
  const seen = new Map<string, string>();
  let failure: string | undefined;

  const fail = (reason: string) => {
    failure ??= reason;
  };

  const visit = (schema: unknown, where: readonly string[], propertyPath: readonly string[] | undefined) => {
    if (failure !== undefined || !isObject(schema)) return;
    if (where.length > MAX_DEPTH) {
      fail(`the input schema is nested deeper than ${MAX_DEPTH} levels`);
      return;
    }
    if (Object.hasOwn(schema, X_MCP_HEADER)) {
      const name = schema[X_MCP_HEADER];
      const at = pointer(where);
      if (propertyPath === undefined || propertyPath.length === 0) {
        fail(
          `${X_MCP_HEADER} at ${at} is not on a property reachable from the root through "properties" alone`,
        );
        return;
      }
      if (typeof name !== "string") {
        fail(`${X_MCP_HEADER} at ${at} is not a string`);
        return;
      }
      if (name.length === 0) {
        fail(`${X_MCP_HEADER} at ${at} is empty`);
        return;
      }
      if (!TOKEN.test(name)) {
        fail(
          `${X_MCP_HEADER} ${JSON.stringify(name)} at ${at} is not a valid header name (RFC 9110 token: no space, colon, control or non-ASCII character)`,
        );
        return;
      }
      const type = primitiveType(schema);
      if (type === undefined) {
        fail(
          `${X_MCP_HEADER} ${JSON.stringify(name)} at ${at} is on a property of type ${JSON.stringify(schema.type ?? "(none)")}; only string, integer and boolean may be mirrored`,
        );
        return;
      }
      const key = name.toLowerCase();
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        fail(
          `${X_MCP_HEADER} ${JSON.stringify(name)} at ${at} duplicates ${JSON.stringify(earlier)} (names compare case-insensitively)`,
        );
        return;
      }
      seen.set(key, name);
      params.push({ path: propertyPath, name, type });
    }

    const properties = schema.properties;
    if (isObject(properties)) {
      for (const [key, sub] of Object.entries(properties)) {
        visit(
          sub,
          [...where, "properties", key],
          propertyPath === undefined ? undefined : [...propertyPath, key],
        );
      }
    }
    for (const keyword of SCHEMA_KEYWORDS) {
      if (isObject(schema[keyword])) visit(schema[keyword], [...where, keyword], undefined);
    }
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const list = schema[keyword];
      if (!Array.isArray(list)) continue;
      for (const [i, sub] of list.entries()) visit(sub, [...where, keyword, String(i)], undefined);
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword];
      if (isObject(map)) {
        for (const [key, sub] of Object.entries(map)) visit(sub, [...where, keyword, key], undefined);
      }
    }
  };

  visit(inputSchema, [], []);
  return failure === undefined ? { kind: "valid", params } : { kind: "invalid", reason: failure };
}

/**
 * The value of one annotated parameter in a call's `arguments`: the value at its exact path, or
 * `undefined` when any step is missing or not an object (an argument that is `null` stays
 * `null`). Never throws. Spec: basic/transports/streamable-http §Custom Headers (value extraction).
 */
export function paramValueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
