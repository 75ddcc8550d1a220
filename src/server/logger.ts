/**
 * The structured logger hook of the server: every diagnostic tsmcp emits goes through it, never
 * to stdout (which stdio servers reserve for protocol messages).
 */

/** Structured fields attached to a log line. Never secrets: tokens and plaintext state stay out. */
export type LogFields = Record<string, unknown>;

/** A structured logger; replace it to route tsmcp's diagnostics into your own. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function write(level: string, message: string, fields?: LogFields): void {
  const line = fields === undefined ? message : `${message} ${safeJson(fields)}`;
  process.stderr.write(`[tsmcp] ${level} ${line}\n`);
}

function safeJson(fields: LogFields): string {
  try {
    return JSON.stringify(fields, (_key, value) =>
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
    );
  } catch {
    return "[unserializable fields]";
  }
}

/** The default logger: warnings and errors to stderr; debug and info dropped. */
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
