/**
 * The client's logger hook: the part of the one `Logger` (`protocol/logger.ts`) the client uses.
 * Its warnings (a tool dropped from `tools/list` for breaking the `x-mcp-header` rules, ...) go
 * through it, never to stdout.
 */
import type { Logger } from "../protocol/logger.js";

/**
 * Receives the client's warnings: any `Logger` fits, and so does an object with just `warn`.
 * `fields` never hold secrets.
 * Default: tsmcp/types' `stderrLogger`; pass its `silentLogger` to drop every warning.
 */
export type ClientLogger = Pick<Logger, "warn">;
