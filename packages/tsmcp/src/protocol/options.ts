/**
 * Checks for the options of tsmcp's constructors and factories, run when the object is built so
 * that a wrong option fails there, never at the first request. Each throws a `TypeError` (wrong
 * type) or `RangeError` (right type, out of range) that names the owner and the option:
 * `TypeError: Server option "version" must be a string`.
 */

/**
 * The error for a wrong option, saying what is wrong after its name:
 * `optionError("Server", "version", "must be a string")`. Without an owner (a helper that does not
 * know who took the option) it reads `Option "version" must be a string`.
 */
export function optionError(owner: string | undefined, option: string, problem: string): TypeError {
  return new TypeError(`${owner === undefined ? "Option" : `${owner} option`} "${option}" ${problem}`);
}

/** The error for an option of the wrong type. */
export function optionTypeError(owner: string | undefined, option: string, expected: string): TypeError {
  return optionError(owner, option, `must be ${expected}`);
}

/**
 * Parses an http(s) endpoint: `subject` is how the message names it (`HttpClientTransport option
 * "url"`).
 *
 * @throws TypeError when `value` is not an absolute URL with scheme `http:` or `https:`:
 *   `HttpClientTransport option "url" must be an absolute http(s) URL, got "nope"`.
 */
export function parseHttpUrl(subject: string, value: unknown): URL {
  let url: URL | undefined;
  if (typeof value === "string" || value instanceof URL) {
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    const got =
      typeof value === "string" || value instanceof URL ? JSON.stringify(String(value)) : typeof value;
    throw new TypeError(`${subject} must be an absolute http(s) URL, got ${got}`);
  }
  return url;
}

/** True for a non-null object that is not an array (what an options bag must be). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks the options bag itself: `undefined` reads as `{}`.
 *
 * @throws TypeError when it is not an object: `Server options must be an object`.
 */
export function checkOptionsObject<T>(owner: string, options: T | undefined): T {
  if (options === undefined) return {} as T;
  if (!isObject(options)) throw new TypeError(`${owner} options must be an object`);
  return options;
}

/** @throws TypeError unless `value` is undefined or a string. */
export function checkString(owner: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "string") throw optionTypeError(owner, option, "a string");
}

/** @throws TypeError unless `value` is undefined or a boolean. */
export function checkBoolean(owner: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "boolean") throw optionTypeError(owner, option, "a boolean");
}

/** @throws TypeError unless `value` is undefined or a function. */
export function checkFunction(owner: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") throw optionTypeError(owner, option, "a function");
}

/** @throws TypeError unless `value` is undefined or an object (not an array). */
export function checkObject(owner: string, option: string, value: unknown): void {
  if (value !== undefined && !isObject(value)) throw optionTypeError(owner, option, "an object");
}

/** Bounds and unit of an integer option. */
export interface IntegerBounds {
  /** Smallest allowed value. Default 0. */
  min?: number;
  /** Largest allowed value. Default `Number.MAX_SAFE_INTEGER`. */
  max?: number;
  /** What the number counts, for the message ("milliseconds", "bytes"). */
  unit?: string;
}

/**
 * @throws TypeError unless `value` is undefined or a number; RangeError when it is not a safe
 *   integer within `min`..`max`.
 */
export function checkInteger(
  owner: string,
  option: string,
  value: unknown,
  bounds: IntegerBounds = {},
): void {
  if (value === undefined) return;
  const { min = 0, max = Number.MAX_SAFE_INTEGER, unit } = bounds;
  const of = unit === undefined ? "" : ` of ${unit}`;
  if (typeof value !== "number") throw optionTypeError(owner, option, `a number${of}`);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new RangeError(`${owner} option "${option}" must be an integer${of} ${range}, got ${value}`);
  }
}
