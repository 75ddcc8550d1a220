/**
 * The client's logger hook: the part of the one `Logger` (`protocol/logger.ts`) the client uses.
 * Its warnings (a tool dropped from `tools/list` for breaking the `x-mcp-header` rules, ...) go
 * through it, never to stdout.
 */
import { type Logger, silentLogger, stderrLogger } from "../protocol/logger.js";

/**
 * Receives the client's warnings: any `Logger` fits, and so does an object with just `warn`.
 * `fields` never hold secrets.
 */
export type ClientLogger = Pick<Logger, "warn">;

/** The default: one `[tsmcp] warn ...` line per warning on stderr (the one default `stderrLogger`). */
export const stderrClientLogger: ClientLogger = stderrLogger;

/** Drops every warning (the one `silentLogger`). */
export const silentClientLogger: ClientLogger = silentLogger;
