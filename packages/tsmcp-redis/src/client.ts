/**
 * The node-redis client as the stores use it, and how one command runs: only when the connection
 * is ready (so nothing waits in an offline queue), within a timeout, its failures turned into
 * `StateUnavailableError`.
 */
import { StateUnavailableError } from "tsmcp/state";

/**
 * The members of a node-redis client (`createClient()` of the `redis` package, v5) the stores use.
 * Any node-redis client fits; the stores send raw commands and Lua scripts only, so the client's
 * modules, RESP version and type mapping do not matter.
 */
export interface RedisClientLike {
  /** True while the client has a socket or is reconnecting one (until `close`/`destroy`). */
  readonly isOpen: boolean;
  /** True while the connection is up and ready for commands. */
  readonly isReady: boolean;
  /** Connects the client; rejects when the reconnect strategy gives up. */
  connect(): Promise<unknown>;
  /** Sends one raw command. */
  sendCommand<T = unknown>(
    args: ReadonlyArray<string>,
    options?: { timeout?: number; typeMapping?: Record<never, never> },
  ): Promise<T>;
  /** Subscribes `listener` to the Pub/Sub channel `channel`. */
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
  /** Unsubscribes `listener` from `channel`. */
  unsubscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
  /** A new client with the same options (not connected). */
  duplicate(): RedisClientLike;
  /** Closes the connection once the pending commands are answered. */
  close(): Promise<void>;
  /** Closes the connection at once, failing the pending commands. */
  destroy(): void;
  /** Listens to a client event (`error`, `ready`, `end`, `reconnecting`). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Stops listening to a client event. */
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** How the stores run commands: their timeout and the retry delay their failures carry. */
export interface CommandSettings {
  /** Milliseconds a command may take before it fails. */
  readonly commandTimeoutMs: number;
  /** The `retryAfterMs` of the `StateUnavailableError`s. */
  readonly retryAfterMs: number;
}

/** A `StateUnavailableError` for `cause` (a node-redis error, a timeout, an offline client). */
export function unavailable(settings: CommandSettings, cause: unknown): StateUnavailableError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StateUnavailableError(`Redis cannot serve the state store: ${reason}`, {
    cause,
    retryAfterMs: settings.retryAfterMs,
  });
}

/**
 * Sends `args` on `client` and resolves with the reply (plain strings, numbers, arrays, null).
 * The deadline is kept here: node-redis's own `timeout` covers a command only until it is written
 * to the connection, not the wait for its reply.
 *
 * @throws (rejects) StateUnavailableError at once when the connection is not ready, and when the
 *   command fails or is not answered within `commandTimeoutMs`.
 */
export async function runCommand<T>(
  client: RedisClientLike,
  settings: CommandSettings,
  args: readonly string[],
): Promise<T> {
  if (!client.isReady) throw unavailable(settings, new Error("the connection to Redis is down"));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sent = client.sendCommand<T>(args, { timeout: settings.commandTimeoutMs, typeMapping: {} });
  try {
    return await Promise.race([
      sent,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${args[0]} was not answered within ${settings.commandTimeoutMs} ms`)),
          settings.commandTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    // A reply (or failure) that comes after the deadline is dropped.
    sent.catch(() => {});
    throw unavailable(settings, error);
  } finally {
    clearTimeout(timer);
  }
}
