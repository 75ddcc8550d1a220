/**
 * Fast structural checks of the two shapes every 2026-07-28 `tools/call` carries: the per-request
 * `_meta` and the `tools/call` params. Each is a sufficient condition for the zod schema it stands
 * in front of (`RequestMetaSchema`, `CallToolRequestParamsSchema` with `_meta` already read): true
 * only for values that schema accepts unchanged, so the caller may skip the schema; anything else
 * (a value the schema would refuse, or a rarer shape this does not cover, such as icons in
 * `clientInfo` or a numeric `progressToken`) goes through the schema, which names the problem.
 * Spec: basic/index (request metadata), server/tools.
 */
import { LOGGING_LEVELS } from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";

/**
 * A plain object (its prototype `Object.prototype` or null), not an array, with no own
 * `__proto__` key (which a schema's copy would turn into a prototype).
 */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, "__proto__");
}

/** Absent, or a plain object. */
function isOptionalRecord(value: unknown): boolean {
  return value === undefined || isPlainRecord(value);
}

/** Absent, or a plain object whose every value is a plain object. */
function isOptionalRecordOfRecords(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainRecord(value)) return false;
  for (const key in value) if (!isPlainRecord(value[key])) return false;
  return true;
}

/** Absent, or a string. */
function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

/** `clientCapabilities` as `ClientCapabilitiesSchema` accepts it. */
function isPlainCapabilities(value: unknown): boolean {
  if (!isPlainRecord(value)) return false;
  const { sampling, elicitation } = value;
  return (
    isOptionalRecordOfRecords(value.experimental) &&
    isOptionalRecord(value.roots) &&
    (sampling === undefined ||
      (isPlainRecord(sampling) && isOptionalRecord(sampling.context) && isOptionalRecord(sampling.tools))) &&
    (elicitation === undefined ||
      (isPlainRecord(elicitation) &&
        isOptionalRecord(elicitation.form) &&
        isOptionalRecord(elicitation.url))) &&
    isOptionalRecordOfRecords(value.extensions)
  );
}

/** `clientInfo` without icons, as `ImplementationSchema` accepts it. */
function isPlainImplementation(value: unknown): boolean {
  return (
    isPlainRecord(value) &&
    typeof value.name === "string" &&
    typeof value.version === "string" &&
    isOptionalString(value.title) &&
    isOptionalString(value.description) &&
    isOptionalString(value.websiteUrl) &&
    value.icons === undefined
  );
}

const LEVELS: ReadonlySet<unknown> = new Set(LOGGING_LEVELS);

/**
 * True when `meta` is a request `_meta` that `RequestMetaSchema` accepts as it is: the protocol
 * version a string, the client capabilities, and the optional client info (without icons), log
 * level and (string) progress token well formed.
 */
export function isPlainRequestMeta(meta: unknown): boolean {
  if (!isPlainRecord(meta)) return false;
  const level = meta[META.logLevel];
  return (
    typeof meta[META.protocolVersion] === "string" &&
    isPlainCapabilities(meta[META.clientCapabilities]) &&
    (meta[META.clientInfo] === undefined || isPlainImplementation(meta[META.clientInfo])) &&
    (level === undefined || LEVELS.has(level)) &&
    isOptionalString(meta[META.progressToken])
  );
}

/**
 * The `tools/call` params as the terminal step's schema would return them (its `_meta` left as it
 * is), or undefined when the schema must check them: `name` a string, `arguments` absent or a plain
 * object, `requestState` absent or a string, no `inputResponses`. A copy, with its own copy of
 * `arguments`: the caller's objects are never handed on to be changed.
 */
export function plainCallToolParams(params: unknown): Record<string, unknown> | undefined {
  if (!isPlainRecord(params)) return undefined;
  const args = params.arguments;
  if (
    typeof params.name !== "string" ||
    !isOptionalRecord(args) ||
    !isOptionalString(params.requestState) ||
    params.inputResponses !== undefined
  ) {
    return undefined;
  }
  return args === undefined ? { ...params } : { ...params, arguments: { ...args } };
}
