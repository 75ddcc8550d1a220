/**
 * The server's logger hook: the one `Logger` of `protocol/logger.ts`. Every diagnostic the server
 * emits goes through it, never to stdout (which stdio servers reserve for protocol messages).
 */
export { type LogFields, type Logger, silentLogger, stderrLogger } from "../protocol/logger.js";
