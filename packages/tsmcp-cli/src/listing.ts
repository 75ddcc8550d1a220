/**
 * Listings a person reads: each tool, prompt, resource or template as a short block — its name
 * and title (and the mark of a UI it carries), a one-line signature with each argument's type,
 * bounds and default (`*` marks a required one), and its description, wrapped to the terminal's
 * width. `--json` output bypasses it.
 * Spec: server/tools (inputSchema), server/prompts (arguments), server/resources.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from "tsmcp/types";
import { formatBytes, uiMark } from "./render.js";

/** The width listings wrap to when stdout is no terminal. */
export const DEFAULT_WIDTH = 80;

/** A JSON Schema, as loosely as a server may write one. */
export type JsonSchema = { readonly [key: string]: unknown };

/** The width to wrap to: the terminal's columns, else {@link DEFAULT_WIDTH}. */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout): number {
  return stream.isTTY === true && stream.columns > 20 ? stream.columns : DEFAULT_WIDTH;
}

/** True for a JSON object (a schema, or a schema's `properties`). */
export const isJsonSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** At most this many enum values are spelled out. */
const MAX_ENUM_VALUES = 6;

/** `"a" | "b" | ...` for a list of allowed values. */
function oneOfValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_ENUM_VALUES).map((value) => JSON.stringify(value));
  if (values.length > MAX_ENUM_VALUES) shown.push(`... (${values.length} values)`);
  return shown.join(" | ");
}

/** A bound a schema states, unless it is no bound at all (a safe-integer limit zod writes for `.int()`). */
function bound(value: unknown): number | undefined {
  return typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
}

/** The bounds of a number, as `1..12`, `>= 0`, `<= 5`, or nothing. */
function numberBounds(min: unknown, max: unknown): string {
  const low = bound(min);
  const high = bound(max);
  if (low !== undefined && high !== undefined) return ` ${low}..${high}`;
  if (low !== undefined) return ` >= ${low}`;
  if (high !== undefined) return ` <= ${high}`;
  return "";
}

/** What a string schema adds to `string`: ` (email, non-empty)`, ` (3..40 chars)`, or nothing. */
function stringNotes(schema: JsonSchema): string {
  const notes: string[] = [];
  if (typeof schema.format === "string") notes.push(schema.format);
  const low = bound(schema.minLength);
  const high = bound(schema.maxLength);
  if (low !== undefined && high !== undefined) notes.push(`${low}..${high} chars`);
  else if (low === 1) notes.push("non-empty");
  else if (low !== undefined && low > 0) notes.push(`>= ${low} chars`);
  else if (high !== undefined) notes.push(`<= ${high} chars`);
  if (typeof schema.pattern === "string") notes.push(`matching ${schema.pattern}`);
  return notes.length === 0 ? "" : ` (${notes.join(", ")})`;
}

/**
 * A schema's type for people: `string`, `integer 1..12`, `string (email)`, `"s" | "m"`,
 * `string[]`, `{ name*: string, phone: string }`, `string | null`, `any`.
 */
export function describeType(schema: unknown, depth = 0): string {
  if (!isJsonSchema(schema)) return "any";
  if (Array.isArray(schema.enum)) return oneOfValues(schema.enum);
  if ("const" in schema) return JSON.stringify(schema.const);
  const choices = (schema.oneOf ?? schema.anyOf) as unknown;
  if (Array.isArray(choices) && choices.length > 0) {
    if (choices.every((choice) => isJsonSchema(choice) && "const" in choice)) {
      return oneOfValues(choices.map((choice) => (choice as JsonSchema).const));
    }
    return choices.map((choice) => describeType(choice, depth)).join(" | ");
  }
  const type = schema.type;
  if (Array.isArray(type))
    return type.map((one) => describeType({ ...schema, type: one }, depth)).join(" | ");
  switch (type) {
    case "integer":
    case "number":
      return `${type}${numberBounds(schema.minimum, schema.maximum)}`;
    case "string":
      return `string${stringNotes(schema)}`;
    case "array": {
      const item = describeType(schema.items, depth + 1);
      return /[ |{]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case "object": {
      const properties = isJsonSchema(schema.properties) ? schema.properties : undefined;
      if (properties === undefined || Object.keys(properties).length === 0 || depth >= 2) return "object";
      return `{ ${parameters(schema, depth + 1).join(", ")} }`;
    }
    case "boolean":
    case "null":
      return type;
    default:
      return "any";
  }
}

/** Each property of an object schema as `name*: type = default` (`*`: required). */
function parameters(schema: JsonSchema, depth = 0): string[] {
  const properties = isJsonSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const fallback =
      isJsonSchema(property) && property.default !== undefined
        ? ` = ${JSON.stringify(property.default)}`
        : "";
    return `${name}${required.has(name) ? "*" : ""}: ${describeType(property, depth)}${fallback}`;
  });
}

/** A call signature: the name and each parameter as `name*: type = default`. */
export interface Signature {
  readonly name: string;
  readonly params: readonly string[];
}

/** A tool's signature: `book_table(restaurant*: string, party: integer 1..12 = 2)` once formatted. */
export function toolSignature(tool: Pick<Tool, "name" | "inputSchema">): Signature {
  return { name: tool.name, params: parameters(tool.inputSchema as JsonSchema) };
}

/** A prompt's signature: `briefing(team*: string, tone: string)` (prompt arguments are strings). */
export function promptSignature(prompt: Pick<Prompt, "name" | "arguments">): Signature {
  return {
    name: prompt.name,
    params: (prompt.arguments ?? []).map((arg) => `${arg.name}${arg.required ? "*" : ""}: string`),
  };
}

/** A signature on one line. */
export function formatSignature(signature: Signature): string {
  return `${signature.name}(${signature.params.join(", ")})`;
}

/**
 * `text` wrapped to `width` columns, every line starting with `indent` (and continuation lines of
 * a long word-less run cut as they are). Line breaks in the text are kept.
 */
export function wrap(text: string, width: number, indent: string): string[] {
  const room = Math.max(20, width - indent.length);
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      if (line === "") line = word;
      else if (line.length + 1 + word.length <= room) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
      while (line.length > room) {
        lines.push(line.slice(0, room));
        line = line.slice(room);
      }
    }
    lines.push(line);
  }
  return lines.map((line) => `${indent}${line}`.trimEnd());
}

/**
 * A signature wrapped to `width` between its parameters, continuation lines indented further, so
 * one parameter is never split.
 */
export function wrapSignature(signature: Signature, width: number, indent: string): string[] {
  const room = Math.max(20, width - indent.length);
  const parts = signature.params.map((param, i) =>
    i < signature.params.length - 1 ? `${param}, ` : `${param})`,
  );
  if (parts.length === 0) return [`${indent}${signature.name}()`];
  const lines: string[] = [];
  let line = `${signature.name}(`;
  for (const part of parts) {
    if (line.trim() !== "" && !line.endsWith("(") && (line + part).trimEnd().length > room) {
      lines.push(line.trimEnd());
      line = `  ${part}`;
    } else line += part;
  }
  lines.push(line);
  return lines.map((text) => `${indent}${text}`);
}

/** The heading of an entry: its name, then ` — title` when the title says more. */
function heading(name: string, title: string | undefined): string {
  return title === undefined || title === "" || title === name ? name : `${name} — ${title}`;
}

/** One entry: heading, the signature (if any), then each detail wrapped and indented. */
function entry(
  head: string,
  signature: Signature | undefined,
  details: readonly (string | undefined)[],
  width: number,
): string {
  const lines = [head];
  if (signature !== undefined) lines.push(...wrapSignature(signature, width, "  "));
  for (const detail of details) {
    if (detail !== undefined && detail !== "") lines.push(...wrap(detail, width, "  "));
  }
  return lines.join("\n");
}

/** Every tool: heading (title, UI mark), signature with types, description. */
export function renderTools(tools: readonly Tool[], width = DEFAULT_WIDTH): string {
  return tools
    .map((tool) => {
      const mark = uiMark(tool);
      const head = `${heading(tool.name, tool.title ?? tool.annotations?.title)}${mark === undefined ? "" : `  ${mark}`}`;
      return entry(head, toolSignature(tool), [tool.description], width);
    })
    .join("\n\n");
}

/** Every prompt: heading, signature, description. */
export function renderPrompts(prompts: readonly Prompt[], width = DEFAULT_WIDTH): string {
  return prompts
    .map((prompt) =>
      entry(heading(prompt.name, prompt.title), promptSignature(prompt), [prompt.description], width),
    )
    .join("\n\n");
}

/** `text/plain, 1.2 kB`: what a resource's metadata says of its contents. */
function contentsNote(mimeType: string | undefined, size: number | undefined): string | undefined {
  const parts = [mimeType, size === undefined ? undefined : formatBytes(size)].filter(
    (part) => part !== undefined,
  );
  return parts.length === 0 ? undefined : parts.join(", ");
}

/** Every resource: URI and name (or title), its type and size, description. */
export function renderResources(resources: readonly Resource[], width = DEFAULT_WIDTH): string {
  return resources
    .map((resource) =>
      entry(
        heading(resource.uri, resource.title ?? resource.name),
        undefined,
        [contentsNote(resource.mimeType, resource.size), resource.description],
        width,
      ),
    )
    .join("\n\n");
}

/** Every resource template: URI template and name (or title), its type, description. */
export function renderTemplates(templates: readonly ResourceTemplate[], width = DEFAULT_WIDTH): string {
  return templates
    .map((template) =>
      entry(
        heading(template.uriTemplate, template.title ?? template.name),
        undefined,
        [contentsNote(template.mimeType, undefined), template.description],
        width,
      ),
    )
    .join("\n\n");
}
