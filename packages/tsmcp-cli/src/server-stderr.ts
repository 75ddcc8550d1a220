/**
 * A stdio server's own stderr, on the command's stderr. The server chooses those bytes as it
 * chooses its results, so they go through the same escaping (see `terminal.ts`) instead of straight
 * to the terminal: the server's stderr is piped, read as UTF-8 and written one line at a time, so a
 * line of the server's never splits one of the command's own and a character never splits across
 * two writes. A CRLF ends a line like a line feed; a last line without one is written, ended, when
 * the stream ends or the process is followed by another (the transport restarts an exited server). Spec: basic/transports §stdio (the server MAY write anything to stderr).
 */
import type { Readable } from "node:stream";
import type { StdioCommand } from "tsmcp/client";
import { StdioClientTransport } from "tsmcp/stdio";

/**
 * The most UTF-16 code units of a line held while its line feed has not arrived; past it, what is
 * held is written as a line of its own, so a server writing no line feed cannot grow the command's
 * memory without end.
 */
export const MAX_HELD_LINE_CHARS = 65_536;

/**
 * Reads `stream` as UTF-8 and calls `writeLine` with each line, without its line feed (or CRLF):
 * a line is passed on once its line feed arrives, or once {@link MAX_HELD_LINE_CHARS} of it are
 * held, and the last line without a line feed when the stream ends. `origin`, when given, names
 * the writer of what arrives (a process id; undefined: the same as before): a line held from
 * another writer is passed on before the new text, so two writers' lines never join.
 *
 * @returns a promise that resolves once the stream has ended (or failed, or closed) and every line
 *   has been passed on; it never rejects.
 */
export function forwardLines(
  stream: Readable,
  writeLine: (line: string) => void,
  origin: () => number | undefined = () => undefined,
): Promise<void> {
  stream.setEncoding("utf8");
  let held = "";
  let heldOrigin: number | undefined;
  return new Promise((resolve) => {
    stream.on("data", (chunk: string) => {
      const from = origin() ?? heldOrigin;
      if (held !== "" && from !== heldOrigin) {
        writeLine(held);
        held = "";
      }
      heldOrigin = from;
      held += chunk;
      let start = 0;
      for (let end = held.indexOf("\n"); end !== -1; end = held.indexOf("\n", start)) {
        writeLine(held.slice(start, end > start && held[end - 1] === "\r" ? end - 1 : end));
        start = end + 1;
      }
      held = held.slice(start);
      if (held.length > MAX_HELD_LINE_CHARS) {
        writeLine(held);
        held = "";
      }
    });
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (held !== "") writeLine(held);
      held = "";
      resolve();
    };
    stream.once("end", finish);
    stream.once("close", finish);
    stream.once("error", finish);
  });
}

/** A stdio transport whose server's stderr is forwarded line by line. */
export interface ForwardedStdio {
  /** The transport to the server, its stderr piped. */
  readonly transport: StdioClientTransport;
  /** Resolves once the transport has closed and the last line of the server's stderr is written. */
  readonly forwarded: Promise<void>;
}

/**
 * A transport that spawns `command` with its stderr piped, each line of it written through
 * `writeLine` (across restarts of the process, until the transport closes).
 *
 * @throws TypeError / RangeError for a malformed command (from `StdioClientTransport`).
 */
export function stdioWithForwardedStderr(
  command: StdioCommand,
  writeLine: (line: string) => void,
): ForwardedStdio {
  const transport = new StdioClientTransport({
    command: command.command,
    ...(command.args === undefined ? {} : { args: command.args }),
    ...(command.env === undefined ? {} : { env: command.env }),
    ...(command.cwd === undefined ? {} : { cwd: command.cwd }),
    stderr: "pipe",
  });
  const stderr = transport.stderr;
  // A restarted server is a new process: its first line never joins the last one of the process before.
  const forwarded =
    stderr === null ? Promise.resolve() : forwardLines(stderr, writeLine, () => transport.pid);
  return { transport, forwarded };
}
