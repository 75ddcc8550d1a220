/**
 * The client's diagnostics hook: the warnings tsmcp's client emits (a tool dropped from
 * `tools/list` for breaking the `x-mcp-header` rules, ...) go through it, never to stdout.
 */

/** Receives the client's warnings; replace it to route them into your own logger. */
export interface ClientLogger {
  /** A problem the client worked around (it did not fail the call). `fields` never hold secrets. */
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** The default: one `[tsmcp] warn ...` line per warning on stderr. */
export const stderrClientLogger: ClientLogger = Object.freeze({
  warn(message: string, fields?: Readonly<Record<string, unknown>>) {
    let suffix = "";
    if (fields !== undefined) {
      try {
        suffix = ` ${JSON.stringify(fields)}`;
      } catch {
        suffix = " [unserializable fields]";
      }
    }
    process.stderr.write(`[tsmcp] warn ${message}${suffix}\n`);
  },
});

/** Drops every warning. */
export const silentClientLogger: ClientLogger = Object.freeze({ warn() {} });
