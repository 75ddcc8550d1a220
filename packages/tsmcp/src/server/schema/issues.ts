/**
 * Validation issues and the one formatter that turns them into wire messages: a list of issues
 * becomes one short line, every quoted path and message cut so a huge invalid value gets a small
 * answer.
 */
import { truncate } from "../../protocol/text.js";
import type { StandardSchemaV1 } from "./standard-schema.js";

/** One validation problem: the dotted path of the offending field ("" for the root) and why. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

function segmentName(segment: PropertyKey | StandardSchemaV1.PathSegment): string {
  const key = typeof segment === "object" ? segment.key : segment;
  return typeof key === "symbol" ? (key.description ?? "") : String(key);
}

/** A Standard Schema issue as a {@link SchemaIssue} (its path as dotted field names). */
export function toIssue(issue: StandardSchemaV1.Issue): SchemaIssue {
  return { path: (issue.path ?? []).map(segmentName).join("."), message: issue.message };
}

/** Most issues (or fields) named in one message; the rest are counted ("and N more"). */
const MAX_NAMED_ISSUES = 5;

/** Longest issue path quoted in a message; a longer one is cut with "…". */
const MAX_PATH_LENGTH = 100;

/** Longest issue message quoted in a message (it may quote a key the client sent); cut with "…". */
const MAX_MESSAGE_LENGTH = 200;

/** The first {@link MAX_NAMED_ISSUES} `items`, each formatted, joined by `separator`, then `and N more`. */
function joinCapped<T>(items: readonly T[], format: (item: T) => string, separator: string): string {
  const named = items.slice(0, MAX_NAMED_ISSUES).map(format);
  const rest = items.length - named.length;
  return (rest > 0 ? [...named, `and ${rest} more`] : named).join(separator);
}

/**
 * The issues as one line for a wire message: `path: message; path: message` (the root's issues
 * without a path). At most five issues are named, then `and N more`; each path is cut to 100
 * characters and each message to 200 (with "…"), so a huge invalid value gets a small answer.
 */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return joinCapped(
    issues,
    (issue) => {
      const message = truncate(issue.message, MAX_MESSAGE_LENGTH);
      return issue.path === "" ? message : `${truncate(issue.path, MAX_PATH_LENGTH)}: ${message}`;
    },
    "; ",
  );
}

/**
 * The distinct field paths named by the issues (the root as "(root)"), comma-separated, for
 * messages that must not leak more: at most five, then `and N more`, each cut to 100 characters.
 */
export function describeIssueFields(issues: readonly SchemaIssue[]): string {
  const fields = new Set(issues.map((issue) => (issue.path === "" ? "(root)" : issue.path)));
  return joinCapped([...fields], (field) => truncate(field, MAX_PATH_LENGTH), ", ");
}

/** A compiled raw JSON Schema validator. */
export type JsonValidator = (value: unknown) => readonly SchemaIssue[] | undefined;
