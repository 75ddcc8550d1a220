/**
 * The roots the command offers (`--root`, repeatable): each a directory, given as a path or a
 * `file:` URI, sent as its `file://` URI. A root tells the server where it may work; the command
 * offers none unless asked, so a server keeps the directories it was started with.
 * Spec: client/roots.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "./target.js";

/** A URI scheme and its colon (two letters at least, so `C:\dir` stays a path). */
const SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/**
 * The `file:` URI of a `--root` value: a `file:` URI as given (normalized), else a path, resolved
 * against the working directory `cwd`.
 *
 * @throws UsageError for a URI of another scheme, or a `file:` URI that does not parse.
 */
export function rootUri(value: string, cwd: string = process.cwd()): string {
  if (!SCHEME.test(value)) return pathToFileURL(resolve(cwd, value)).href;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== "file:") {
    throw new UsageError(`--root must be a directory (a path or a file: URI), got ${value}`);
  }
  return url.href;
}
