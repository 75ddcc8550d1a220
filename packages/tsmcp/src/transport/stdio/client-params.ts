/**
 * The parameters of a stdio client transport (how to start the server process), their checks, and
 * the words for a process that could not start or exited. Spec: basic/transports/stdio.
 */
import { checkInteger, checkString, isObject, optionTypeError } from "../../protocol/options.js";
import { TransportError } from "../transport.js";
import type { ProcessExit } from "./terminate.js";

/** What happens to the server's stderr: passed through to ours, exposed as a stream, or dropped. */
export type StdioStderrMode = "inherit" | "pipe" | "ignore";

/** How to start the server process of a {@link StdioClientTransport}. */
export interface StdioClientTransportParams {
  /** The program to run (looked up on the child's `PATH`; no shell). */
  command: string;
  /** Its arguments. Default none. */
  args?: readonly string[];
  /**
   * Variables added to the child's environment, over the few it inherits
   * (`DEFAULT_INHERITED_ENV_VARS`). The rest of this process's environment is not passed.
   */
  env?: Readonly<Record<string, string>>;
  /** The child's working directory. Default: this process's. */
  cwd?: string;
  /**
   * The child's stderr: "inherit" (default) writes it to this process's stderr; "pipe" exposes it
   * as {@link StdioClientTransport.stderr}, which must then be read (an unread pipe fills up and
   * stalls the server); "ignore" drops it.
   */
  stderr?: StdioStderrMode;
  /** Milliseconds the server gets to exit after its stdin closes. Default 2000. */
  closeGracePeriodMs?: number;
  /** Milliseconds the server gets to exit after SIGTERM before SIGKILL. Default 2000. */
  terminateGracePeriodMs?: number;
  /** The longest line accepted from the server, in bytes. Default 16 MiB. */
  maxLineBytes?: number;
  /**
   * The most requests from the server (`elicitation/create`, `sampling/createMessage`, `roots/list`,
   * `ping` on a 2025-era session) answered at once; one beyond it is answered at once with -32600
   * "Too many concurrent requests from the server (limit N)" and never reaches the client's
   * callbacks. An integer >= 1. Default `DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS` (16).
   */
  maxConcurrentServerRequests?: number;
}

const OWNER = "StdioClientTransport";

export function checkParams(params: StdioClientTransportParams): void {
  if (!isObject(params)) throw new TypeError("StdioClientTransport: params must be an object");
  const { command, args, env, cwd, stderr, maxLineBytes } = params;
  if (typeof command !== "string" || command.length === 0) {
    throw optionTypeError(OWNER, "command", "a non-empty string");
  }
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === "string"))) {
    throw optionTypeError(OWNER, "args", "an array of strings");
  }
  if (
    env !== undefined &&
    (!isObject(env) || !Object.values(env).every((value) => typeof value === "string"))
  ) {
    throw optionTypeError(OWNER, "env", "an object mapping names to string values");
  }
  checkString(OWNER, "cwd", cwd);
  if (stderr !== undefined && stderr !== "inherit" && stderr !== "pipe" && stderr !== "ignore") {
    throw optionTypeError(OWNER, "stderr", '"inherit", "pipe" or "ignore"');
  }
  checkInteger(OWNER, "closeGracePeriodMs", params.closeGracePeriodMs, { unit: "milliseconds" });
  checkInteger(OWNER, "terminateGracePeriodMs", params.terminateGracePeriodMs, { unit: "milliseconds" });
  checkInteger(OWNER, "maxLineBytes", maxLineBytes, { min: 1, unit: "bytes" });
  checkInteger(OWNER, "maxConcurrentServerRequests", params.maxConcurrentServerRequests, { min: 1 });
}

export function describeExit(exit: ProcessExit): string {
  if (exit.signal !== null) return `was killed by signal ${exit.signal}`;
  return `exited with code ${exit.exitCode}`;
}

export function spawnFailure(
  command: string,
  cwd: string | undefined,
  error: NodeJS.ErrnoException,
): TransportError {
  const where = cwd === undefined ? "" : ` (or the working directory "${cwd}" does not exist)`;
  if (error.code === "ENOENT") {
    return new TransportError(`cannot start the MCP server: command "${command}" was not found${where}`, {
      cause: error,
    });
  }
  if (error.code === "EACCES") {
    return new TransportError(`cannot start the MCP server: command "${command}" is not executable`, {
      cause: error,
    });
  }
  return new TransportError(`cannot start the MCP server "${command}": ${error.message}`, { cause: error });
}
