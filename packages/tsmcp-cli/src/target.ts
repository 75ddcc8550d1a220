/**
 * The `<target>` argument of every command: an `http(s)://` URL (Streamable HTTP), or a command line
 * whose process speaks MCP over stdio. The command line is split into words with `shell-quote`
 * (POSIX quoting, `$VAR` from the environment) and spawned without a shell, so it behaves the same
 * on every platform and a quoted argument is never re-interpreted; pipes, redirections and `&&` are
 * refused (wrap them in `sh -c '...'` when they are wanted).
 */

import { parse } from "shell-quote";
import type { StdioCommand } from "tsmcp/client";
import { TsmcpError } from "tsmcp/types";

/** A target as `Client.connect` takes it: a URL, or a command to spawn. */
export type CliTarget = { kind: "url"; url: URL } | { kind: "command"; command: StdioCommand; line: string };

/**
 * Reads a target: a string starting with `http://` or `https://` is a URL, anything else a command line.
 *
 * @throws UsageError for an empty command line, a URL that does not parse, or a command line with
 *   shell operators (`|`, `>`, `&&`, ...) or globs.
 */
export function parseTarget(text: string, env: NodeJS.ProcessEnv = process.env): CliTarget {
  if (/^https?:\/\//i.test(text)) {
    if (!URL.canParse(text)) throw new UsageError(`target is not a valid URL: ${text}`);
    return { kind: "url", url: new URL(text) };
  }
  const words: string[] = [];
  for (const entry of parse(text, (name) => env[name] ?? "")) {
    if (typeof entry !== "string") {
      const op = "op" in entry ? entry.op : "comment" in entry ? "#" : "pattern";
      throw new UsageError(
        `target command line has a shell operator (${op}): run it through a shell, e.g. "sh -c '...'"`,
      );
    }
    words.push(entry);
  }
  const [command, ...args] = words;
  if (command === undefined || command === "") {
    throw new UsageError("target must be an http(s) URL or a command line, got an empty string");
  }
  return { kind: "command", command: { command, args }, line: text };
}

/** A mistake in how the command was invoked; exits with {@link EXIT_USAGE}. */
export class UsageError extends TsmcpError {
  override readonly name: string = "UsageError";
  /** The command's stable code for this failure, `"ERR_USAGE"`. */
  override readonly code: string = "ERR_USAGE";
}

/** Exit code of a command that succeeded. */
export const EXIT_OK = 0;
/** Exit code of a tool result with `isError`, or a protocol or transport error. */
export const EXIT_FAILURE = 1;
/** Exit code of a usage mistake, or a question no answer was given for without a terminal. */
export const EXIT_USAGE = 2;
/** Exit code of a command stopped by Ctrl-C (SIGINT) while it followed a task: 128 + 2, as shells report it. */
export const EXIT_INTERRUPTED = 130;
