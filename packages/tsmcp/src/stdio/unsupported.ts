/**
 * What `tsmcp/stdio` resolves to outside Node.js (the package's `"default"` export condition, for
 * browser and neutral bundles): the same names as the real entry, and every class or function
 * throws {@link STDIO_NEEDS_NODE} when used, because stdio spawns a child process or reads this
 * process's stdin. A bundle of `tsmcp/client` follows `Client.connect`'s on-demand
 * `import("tsmcp/stdio")` here instead of into `node:child_process`; on Node.js (the `"node"`
 * condition) the real entry loads. Spec: basic/transports/stdio.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";

export { DEFAULT_MAX_LINE_BYTES } from "../transport/stdio/framing.js";
export {
  DEFAULT_CLOSE_GRACE_PERIOD_MS,
  DEFAULT_TERMINATE_GRACE_PERIOD_MS,
} from "../transport/stdio/terminate.js";

/** The message of every error this module throws. */
export const STDIO_NEEDS_NODE = "tsmcp/stdio needs Node.js (a child process); pass a Transport instead";

function unsupported(): never {
  throw new Error(STDIO_NEEDS_NODE);
}

/** Without a process there is no environment to inherit. */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = Object.freeze([]);

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export class StdioClientTransport {
  constructor(..._args: unknown[]) {
    unsupported();
  }
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export class ServerProcessExitedError extends TsmcpError {
  override readonly code: TsmcpErrorCode = ERROR_CODES.ServerProcessExitedError;
  constructor(..._args: unknown[]) {
    super(STDIO_NEEDS_NODE);
    unsupported();
  }
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export class LineDecoder {
  constructor(..._args: unknown[]) {
    unsupported();
  }
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export class LineTooLongError extends TsmcpError {
  override readonly code: TsmcpErrorCode = ERROR_CODES.LineTooLongError;
  constructor(..._args: unknown[]) {
    super(STDIO_NEEDS_NODE);
    unsupported();
  }
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export function defaultInheritedEnvironment(): never {
  return unsupported();
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export function serializeMessage(..._args: unknown[]): never {
  return unsupported();
}

/** @throws Error always: {@link STDIO_NEEDS_NODE}. */
export function serveStdio(..._args: unknown[]): never {
  return unsupported();
}
