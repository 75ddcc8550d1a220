/**
 * The descriptive fields tools, prompts and resources are registered with (`title`,
 * `description`, `annotations`, `icons`, `_meta`, ...): checked once at registration and copied
 * into the advertised definition, so later changes to the caller's objects have no effect.
 */
import { isPlainObject } from "../schema/json.js";

/** The descriptive fields a definition may copy from its configuration. */
export type DescriptiveField =
  | "name"
  | "title"
  | "description"
  | "mimeType"
  | "annotations"
  | "icons"
  | "_meta";

const STRING_FIELDS = new Set<DescriptiveField>(["name", "title", "description", "mimeType"]);

/**
 * Checks a configuration object and the descriptive `fields` it may carry: strings for `name`,
 * `title`, `description`, `mimeType`; an object for `annotations` and `_meta`; an array for `icons`.
 *
 * @throws TypeError naming `where` otherwise.
 */
export function checkDescriptor(
  config: unknown,
  where: string,
  fields: readonly DescriptiveField[],
): asserts config is Record<string, unknown> {
  if (!isPlainObject(config)) throw new TypeError(`${where}: config must be an object`);
  for (const field of fields) {
    const value = config[field];
    if (value === undefined) continue;
    if (STRING_FIELDS.has(field)) {
      if (typeof value !== "string") throw new TypeError(`${where}: ${field} must be a string`);
    } else if (field === "icons") {
      if (!Array.isArray(value)) throw new TypeError(`${where}: icons must be an array`);
    } else if (!isPlainObject(value)) {
      throw new TypeError(`${where}: ${field} must be an object`);
    }
  }
}

/** Copies (deeply) the `fields` present on `config`, in the order given. */
export function descriptiveFields(
  config: object,
  fields: readonly DescriptiveField[],
): Record<string, unknown> {
  const copied: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (config as Record<string, unknown>)[field];
    if (value !== undefined) copied[field] = structuredClone(value);
  }
  return copied;
}
