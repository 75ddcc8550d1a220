/**
 * Names a value's type for error and log messages without including the value itself, which may
 * be a secret: `"null"`, `"number"`, `"Array"`, `"Promise"`.
 */

/** The type of `value` as a short name: its constructor's name for objects, `typeof` otherwise. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "object";
  return typeof value;
}
