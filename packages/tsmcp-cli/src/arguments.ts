/**
 * A tool's arguments checked against its `inputSchema` before the call: the required ones not
 * given (and, with `--ask-all`, the optional ones) are asked at a terminal with the same prompts
 * as a question's form (types, choices, bounds, formats, defaults; a nested object's fields
 * grouped under its name); without a terminal the command stops before calling, naming every
 * missing argument and its type. Spec: server/tools (inputSchema).
 */
import type { Tool } from "tsmcp/types";
import { askField, isCancelled } from "./form.js";
import { describeType, isJsonSchema, type JsonSchema } from "./listing.js";
import { UsageError } from "./target.js";

/** One argument to ask: its path (`guest.name` inside an object), schema and whether it is required. */
export interface MissingArgument {
  readonly path: readonly string[];
  readonly schema: JsonSchema;
  readonly required: boolean;
}

/** The properties and required names of an object schema. */
function fieldsOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties: Record<string, JsonSchema> = {};
  if (isJsonSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      properties[name] = isJsonSchema(property) ? property : {};
    }
  }
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((name): name is string => typeof name === "string")
      : [],
  );
  return { properties, required };
}

/** True for an object schema with properties of its own (asked field by field). */
function isGroup(schema: JsonSchema): boolean {
  return schema.type === "object" && Object.keys(fieldsOf(schema).properties).length > 0;
}

/**
 * The arguments `args` lacks: the required ones, and with `all` the optional ones too; a missing
 * object with properties gives its fields (the required ones, or all with `all`), grouped.
 */
export function missingArguments(
  schema: JsonSchema,
  args: Readonly<Record<string, unknown>>,
  all: boolean,
  path: readonly string[] = [],
): MissingArgument[] {
  const { properties, required } = fieldsOf(schema);
  const missing: MissingArgument[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (args[name] !== undefined) continue;
    const isRequired = required.has(name);
    if (!isRequired && !all) continue;
    if (isGroup(property)) {
      const inner = missingArguments(property, {}, all, [...path, name]);
      missing.push(...inner.map((field) => ({ ...field, required: field.required && isRequired })));
    } else {
      missing.push({ path: [...path, name], schema: property, required: isRequired });
    }
  }
  return missing;
}

/** The missing arguments of a call made without a terminal: named with their types; exit code 2. */
export class MissingArgumentsError extends UsageError {
  override readonly name = "MissingArgumentsError";
  override readonly code: string = "ERR_MISSING_ARGUMENTS";
  /** The tool. */
  readonly tool: string;
  /** Each missing argument: its dotted name and type. */
  readonly missing: readonly { readonly name: string; readonly type: string }[];

  constructor(tool: string, missing: readonly MissingArgument[]) {
    const named = missing.map((field) => ({ name: field.path.join("."), type: describeType(field.schema) }));
    super(
      `${tool} needs ${named.map((field) => `${field.name}: ${field.type}`).join(", ")}; ` +
        `pass ${named.length === 1 ? "it" : "them"} as name=value or --args '{...}', or run at a terminal to be asked`,
    );
    this.tool = tool;
    this.missing = named;
  }
}

/** Sets `value` at `path` inside `target`, making the objects on the way. */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (!isJsonSchema(next)) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1) as string] = value;
}

/** A field the form cannot draw as it is (a list of values, a union, anything): typed as JSON. */
function asJsonField(schema: JsonSchema): JsonSchema {
  return {
    type: "string",
    title: schema.title,
    description: `${describeType(schema)}, as JSON${typeof schema.description === "string" ? ` — ${schema.description}` : ""}`,
  };
}

/** True for a field schema the form draws as it is (text, number, yes/no, choices). */
function isDrawable(schema: JsonSchema): boolean {
  if (schema.type === "string" || schema.type === "number" || schema.type === "integer") return true;
  if (schema.type === "boolean") return true;
  const items = schema.items as JsonSchema | undefined;
  return (
    schema.type === "array" &&
    isJsonSchema(items) &&
    (Array.isArray(items.enum) || Array.isArray(items.anyOf))
  );
}

/**
 * Asks each missing argument at the terminal and resolves with the arguments completed; an
 * optional one left empty stays out.
 *
 * @throws UsageError when the person presses Esc or Ctrl-C (nothing is called).
 */
export async function askArguments(
  tool: Pick<Tool, "name" | "inputSchema">,
  args: Readonly<Record<string, unknown>>,
  missing: readonly MissingArgument[],
): Promise<Record<string, unknown>> {
  const filled: Record<string, unknown> = structuredClone({ ...args });
  for (const field of missing) {
    const drawable = isDrawable(field.schema);
    const value = await askField(
      field.path.join("."),
      (drawable ? field.schema : asJsonField(field.schema)) as Parameters<typeof askField>[1],
      field.required,
    );
    if (isCancelled(value)) throw new UsageError(`cancelled: ${tool.name} was not called`);
    if (value === undefined) continue;
    setAt(filled, field.path, drawable ? value : parseJsonText(value as string));
  }
  return filled;
}

/** Typed JSON, or the text itself when it is not JSON. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
