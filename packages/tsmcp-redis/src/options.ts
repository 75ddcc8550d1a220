/**
 * The options every Redis store takes, their defaults and their checks.
 */
import type { CommandSettings } from "./client.js";

/** The key prefix by default: `"tsmcp:"`. */
export const DEFAULT_KEY_PREFIX = "tsmcp:";
/** Milliseconds a command may take by default before it fails: 5 000. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;
/** The longest wait between two reconnection attempts by default, milliseconds: 2 000. */
export const DEFAULT_MAX_RECONNECT_DELAY_MS = 2_000;

/** Options every Redis store takes. */
export interface RedisStoreOptions {
  /** Prepended to every key and channel name. Default {@link DEFAULT_KEY_PREFIX}. */
  keyPrefix?: string;
  /** Milliseconds a command may take before it fails, from 1. Default {@link DEFAULT_COMMAND_TIMEOUT_MS}. */
  commandTimeoutMs?: number;
  /**
   * Milliseconds after which a failed call may succeed (the `retryAfterMs` of the
   * `StateUnavailableError`s, at least 1 000). Default {@link DEFAULT_MAX_RECONNECT_DELAY_MS}.
   */
  retryAfterMs?: number;
}

/** The checked settings of a store. */
export interface StoreSettings extends CommandSettings {
  readonly keyPrefix: string;
}

/** Throws unless `options` is an object (or undefined). */
export function checkObject(owner: string, options: unknown): void {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(`${owner}: options must be an object`);
  }
}

/**
 * `value` when it is an integer from `min`, `fallback` when undefined.
 *
 * @throws TypeError for a non-number; RangeError for a non-integer or a number below `min`.
 */
export function integerOption(
  owner: string,
  name: string,
  value: unknown,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number")
    throw new TypeError(`${owner}: ${name} must be a number, got ${typeof value}`);
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${owner}: ${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

/** Checks the options every store takes and fills in their defaults. */
export function storeSettings(owner: string, options: RedisStoreOptions | undefined): StoreSettings {
  checkObject(owner, options);
  const keyPrefix = options?.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== "string") throw new TypeError(`${owner}: keyPrefix must be a string`);
  return {
    keyPrefix,
    commandTimeoutMs: integerOption(
      owner,
      "commandTimeoutMs",
      options?.commandTimeoutMs,
      DEFAULT_COMMAND_TIMEOUT_MS,
    ),
    retryAfterMs: integerOption(owner, "retryAfterMs", options?.retryAfterMs, DEFAULT_MAX_RECONNECT_DELAY_MS),
  };
}

/** Throws unless `client` has the members of a node-redis client the stores use. */
export function checkClient(owner: string, client: unknown): void {
  const members = ["sendCommand", "subscribe", "unsubscribe", "on", "off"];
  if (
    typeof client !== "object" ||
    client === null ||
    !members.every((name) => typeof (client as Record<string, unknown>)[name] === "function")
  ) {
    throw new TypeError(`${owner}: expected a node-redis client (from createClient() of the redis package)`);
  }
}

/** A key part as text that cannot be confused with the separators of the key layout (`:`, `{`, `}`). */
export function keyPart(value: string): string {
  return encodeURIComponent(value);
}
