/**
 * Checks a scripted form answer against the question's `requestedSchema` before it is sent, so a
 * value the server would refuse is reported at once with the field, the value and the schema:
 * required fields, types, enums (`enum`, `oneOf`, `items.enum`, `items.anyOf`), number bounds,
 * string lengths and formats, and list sizes. Spec: client/elicitation §Requested Schema.
 */
import type { PrimitiveSchemaDefinition, RequestedSchema } from "tsmcp/types";
import type { ElicitContent } from "./elicit-content.js";
import { checkText } from "./form.js";

/** A field whose scripted value does not fit its schema. */
export interface AnswerMismatch {
  /** The field (property) name. */
  readonly field: string;
  /** The value given; undefined when a required field is missing. */
  readonly value: unknown;
  /** What is wrong, in words: "is not one of a, b". */
  readonly problem: string;
}

interface EnumParts {
  enum?: string[];
  oneOf?: { const: string }[];
  items?: { enum?: string[]; anyOf?: { const: string }[] };
}

/** The allowed values of an enum field (single or multiple choice), or undefined for any other. */
function allowed(schema: PrimitiveSchemaDefinition): string[] | undefined {
  const parts = schema as EnumParts;
  if (schema.type === "array") return parts.items?.enum ?? parts.items?.anyOf?.map((option) => option.const);
  return parts.enum ?? parts.oneOf?.map((option) => option.const);
}

/** What is wrong with `value` for `schema`, or undefined when it fits. */
function checkField(schema: PrimitiveSchemaDefinition, value: unknown): string | undefined {
  const values = allowed(schema);
  if (schema.type === "array") {
    if (!Array.isArray(value)) return "is not a list";
    const bad = value.find((item) => values !== undefined && !values.includes(item as string));
    if (bad !== undefined) return `holds ${JSON.stringify(bad)}, not one of ${values?.join(", ")}`;
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `has fewer than ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `has more than ${schema.maxItems} items`;
    return undefined;
  }
  if (schema.type === "boolean") return typeof value === "boolean" ? undefined : "is not true or false";
  if (schema.type === "number" || schema.type === "integer") {
    if (typeof value !== "number") return `is not a ${schema.type === "integer" ? "whole " : ""}number`;
    return checkText(schema, String(value), true) === undefined
      ? undefined
      : `is not ${checkText(schema, String(value), true)?.replace(/^enter /, "")}`;
  }
  if (typeof value !== "string") return "is not a string";
  if (values !== undefined) return values.includes(value) ? undefined : `is not one of ${values.join(", ")}`;
  const problem = checkText(schema, value, false);
  return problem === undefined ? undefined : `does not fit: ${problem.replace(/^enter /, "")}`;
}

/**
 * The first field of `content` that does not fit `schema` (a missing required field, a wrong type,
 * a value out of the enum or bounds), or undefined when the answer fits. A field the schema does
 * not name is left to the server.
 */
export function checkAnswer(content: ElicitContent, schema: RequestedSchema): AnswerMismatch | undefined {
  for (const field of schema.required ?? []) {
    if (content[field] === undefined || content[field] === null)
      return { field, value: undefined, problem: "is required" };
  }
  for (const [field, value] of Object.entries(content)) {
    const fieldSchema = schema.properties[field];
    if (fieldSchema === undefined || value === null) continue;
    const problem = checkField(fieldSchema, value);
    if (problem !== undefined) return { field, value, problem };
  }
  return undefined;
}
