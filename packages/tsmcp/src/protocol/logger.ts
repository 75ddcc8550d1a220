/**
 * The one logger hook of tsmcp: every diagnostic the server, the client and the transports emit
 * goes through a `Logger`, never to stdout (which stdio reserves for protocol messages). One
 * default writer (warnings and errors to stderr) and one that drops everything.
 */

/** Structured fields attached to a log line. Never secrets: tokens and plaintext state stay out. */
export type LogFields = Record<string, unknown>;

/** A structured logger; pass your own to route tsmcp's diagnostics into your logging. */
export interface Logger {
  /** Detail for following one request through tsmcp; dropped by the default logger. */
  debug(message: string, fields?: LogFields): void;
  /** A normal event worth a line (a session opened, a key rotated); dropped by the default logger. */
  info(message: string, fields?: LogFields): void;
  /** Something refused or degraded that the operator should know of (a rejected token, a process-local key). */
  warn(message: string, fields?: LogFields): void;
  /** A failure tsmcp could not answer well (a handler threw, a transport broke). */
  error(message: string, fields?: LogFields): void;
}

/** The level names of a {@link Logger}, lowest first. */
export type LogLevel = keyof Logger;

/** Every method of a {@link Logger}. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(["debug", "info", "warn", "error"]);

function serialize(fields: LogFields): string {
  try {
    return JSON.stringify(fields, (_key, value: unknown) =>
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
    );
  } catch {
    return "[unserializable fields]";
  }
}

interface StderrLike {
  write(text: string): unknown;
}

/** Writes one line to stderr where the runtime has one (Node, Deno, Bun), else to `console.error`. */
function writeLine(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: Partial<StderrLike> } }).process?.stderr;
  if (typeof stderr?.write === "function") stderr.write(`${line}\n`);
  else console.error(line);
}

function write(level: LogLevel, message: string, fields?: LogFields): void {
  writeLine(`[tsmcp] ${level} ${message}${fields === undefined ? "" : ` ${serialize(fields)}`}`);
}

/**
 * The default logger: `[tsmcp] warn ...` / `[tsmcp] error ...` lines on stderr (`console.error` on
 * a runtime without one), fields as JSON (an `Error` as its name, message and stack); debug and
 * info dropped.
 */
export const stderrLogger: Logger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: (message: string, fields?: LogFields) => write("warn", message, fields),
  error: (message: string, fields?: LogFields) => write("error", message, fields),
});

/** A logger that drops everything. */
export const silentLogger: Logger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
});

/**
 * Checks a user-provided logger option: an object with a function for each of `levels` (default
 * all four). Returns it typed.
 *
 * @param owner who takes the option, as it appears in the error (`Server`, `serveStdio`).
 * @param option the option's name (`logger`).
 * @throws TypeError naming the option and the missing methods:
 *   `Server option "logger" must have debug, info, warn and error methods`.
 */
export function checkLogger<L extends LogLevel = LogLevel>(
  value: unknown,
  owner: string,
  option = "logger",
  levels: readonly L[] = LOG_LEVELS as readonly L[],
): Pick<Logger, L> {
  const candidate = value as Partial<Record<LogLevel, unknown>> | null;
  if (
    typeof value !== "object" ||
    value === null ||
    levels.some((level) => typeof candidate?.[level] !== "function")
  ) {
    const one = levels[0] as string;
    const methods =
      levels.length === 1
        ? `${/^[aeiou]/.test(one) ? "an" : "a"} ${one} method`
        : `${listOf(levels)} methods`;
    throw new TypeError(`${owner} option "${option}" must have ${methods}`);
  }
  return value as Pick<Logger, L>;
}

function listOf(names: readonly string[]): string {
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
