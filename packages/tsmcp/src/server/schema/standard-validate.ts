/**
 * Validating untrusted input with a Standard Schema at a cost bounded by the input, not by how
 * wrong it is: a small value is validated in full (every issue named), a large one through zod's
 * early exit, which stops at the first failing element or property instead of building one issue
 * per element (200,000 wrong array items would otherwise cost about ten times a valid body).
 */
import { type SchemaIssue, toIssue } from "./issues.js";
import type { StandardSchemaV1 } from "./standard-schema.js";

/** The outcome of validating one value against a Standard Schema. */
export type StandardOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/**
 * Largest input (objects, arrays and primitives counted together) validated in full; a larger one
 * is validated through the library's early exit when it has one. At most this many issues are built
 * for any input, a few microseconds of work.
 */
export const FULL_REPORT_MAX_NODES = 64;

/** The zod v4 surface used for the early exit (classic and mini schemas both have it). */
interface ZodSafeParse {
  safeParse(value: unknown, context: object): ZodSafeParseResult;
  safeParseAsync(value: unknown, context: object): Promise<ZodSafeParseResult>;
}

type ZodSafeParseResult =
  | { success: true; data: unknown }
  | { success: false; error: { issues: readonly StandardSchemaV1.Issue[] } };

/**
 * zod's parse context flag that stops a container at its first failing child (a type error in an
 * array element or any issue in an object property). A zod without it validates in full.
 */
const EARLY_EXIT = Object.freeze({ abortEarly: true });

function hasZodEarlyExit(schema: StandardSchemaV1): schema is StandardSchemaV1 & ZodSafeParse {
  const candidate = schema as Partial<ZodSafeParse> & { _zod?: unknown };
  return (
    schema["~standard"].vendor === "zod" &&
    typeof candidate._zod === "object" &&
    typeof candidate.safeParse === "function" &&
    typeof candidate.safeParseAsync === "function"
  );
}

/** True when `value` holds more than `limit` JSON nodes; stops counting once past the limit. */
export function exceedsNodes(value: unknown, limit: number): boolean {
  const pending: unknown[] = [value];
  let seen = 1;
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      seen += node.length;
      if (seen > limit) return true;
      pending.push(...node);
      continue;
    }
    for (const key in node) {
      seen += 1;
      if (seen > limit) return true;
      pending.push((node as Record<string, unknown>)[key]);
    }
  }
  return seen > limit;
}

function fromStandard(result: StandardSchemaV1.Result<unknown>): StandardOutcome {
  return result.issues === undefined
    ? { ok: true, value: result.value }
    : { ok: false, issues: result.issues.map(toIssue) };
}

function fromZod(result: ZodSafeParseResult): StandardOutcome {
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: result.error.issues.map(toIssue) };
}

async function earlyExitAsync(schema: ZodSafeParse, value: unknown): Promise<StandardOutcome> {
  return fromZod(await schema.safeParseAsync(value, EARLY_EXIT));
}

function earlyExit(schema: ZodSafeParse, value: unknown): StandardOutcome | Promise<StandardOutcome> {
  try {
    return fromZod(schema.safeParse(value, EARLY_EXIT));
  } catch {
    // An asynchronous refinement (or a check that throws) is retried on the asynchronous path,
    // where a throw becomes a rejection, as the schema's own Standard Schema `validate` does.
    return earlyExitAsync(schema, value);
  }
}

/**
 * Validates `value` with `schema`: through zod's early exit when the schema is a zod v4 schema and
 * the value has more than {@link FULL_REPORT_MAX_NODES} nodes (the issues are then the first ones
 * found, typically one), otherwise through the schema's Standard Schema `validate` (every issue).
 * Synchronous unless the schema validates asynchronously. Rejects (or throws) only when the schema
 * itself does.
 */
export function validateStandard(
  schema: StandardSchemaV1,
  value: unknown,
): StandardOutcome | Promise<StandardOutcome> {
  if (hasZodEarlyExit(schema) && exceedsNodes(value, FULL_REPORT_MAX_NODES)) return earlyExit(schema, value);
  const result = schema["~standard"].validate(value);
  return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
}
