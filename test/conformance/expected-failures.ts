/**
 * The conformance baseline: which scenarios are known not to pass yet, and the verdict of a run
 * against it. The list is a YAML file with one section per leg, a role and the revision it runs at
 * (`server@2026-07-28:`, `server@2025-11-25:`, `client@2026-07-28:`), each a list of scenario names
 * as in the suite's own `--expected-failures` format; this reader accepts only that: every entry
 * names a whole scenario and carries a `# waits for: <capability>` comment.
 *
 * A run passes when every scenario that did not pass is on its leg's list, and no scenario on the
 * list passed (a fix must remove its entry, so the list never hides a regression).
 */

/** The roles the suite runs. */
export type Role = "server" | "client";

/** One run of the suite: a role at a spec revision (`YYYY-MM-DD`). */
export interface Leg {
  readonly role: Role;
  readonly revision: string;
}

/** One known failure: the leg, the scenario and the capability it waits for. */
export interface ExpectedFailure extends Leg {
  readonly scenario: string;
  readonly waitsFor: string;
}

/** One scenario of a run, as `run-conformance.sh` writes it in `summary.json`. */
export interface ScenarioOutcome {
  readonly scenario: string;
  readonly scored: boolean;
  readonly status: "PASSED" | "FAILED" | "NOT_MEASURED";
  /** How many of its checks succeeded (absent when it was not measured). */
  readonly success?: number;
}

/** What a run says against the baseline. */
export interface Verdict {
  /** Failed (or never measured) and not on the list: regressions. */
  readonly unexpectedFailures: readonly ScenarioOutcome[];
  /** On the list but passed: the entry must be removed. */
  readonly stalePasses: readonly ScenarioOutcome[];
  /** On the list for this leg but not part of the run: a typo or a renamed scenario. */
  readonly unknownEntries: readonly ExpectedFailure[];
  /** True when all three lists are empty. */
  readonly ok: boolean;
}

const SECTION = /^(server|client)@(\d{4}-\d{2}-\d{2}):\s*(?:#.*)?$/;
const ENTRY = /^\s+-\s+([^\s#:]+)\s*(?:#\s*(.*))?$/;
const WAITS_FOR = /^waits for:\s*(\S.*)$/;

/**
 * Reads an expected-failures file.
 *
 * @throws SyntaxError naming the line for anything outside the accepted shape: a section without
 *   its revision (`server:`), an entry outside a section, a per-check entry (`scenario:check`), a
 *   missing `# waits for:` comment, a duplicate within a leg.
 */
export function parseExpectedFailures(text: string): ExpectedFailure[] {
  const entries: ExpectedFailure[] = [];
  const seen = new Set<string>();
  let leg: Leg | undefined;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const where = `expected-failures line ${index + 1}`;
    const line = raw.replace(/\s+$/, "");
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const section = SECTION.exec(line);
    if (section !== null) {
      leg = { role: section[1] as Role, revision: section[2] as string };
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry === null) {
      throw new SyntaxError(
        `${where}: expected "server@<revision>:", "client@<revision>:" or "  - <scenario>  # waits for: <capability>", got ${JSON.stringify(raw)}`,
      );
    }
    if (leg === undefined)
      throw new SyntaxError(
        `${where}: an entry before any "server@<revision>:" or "client@<revision>:" section`,
      );
    const scenario = entry[1] as string;
    const waitsFor = WAITS_FOR.exec(entry[2]?.trim() ?? "")?.[1];
    if (waitsFor === undefined) {
      throw new SyntaxError(`${where}: ${scenario} needs a "# waits for: <capability>" comment`);
    }
    const name = `${leg.role}@${leg.revision}`;
    const key = `${name}/${scenario}`;
    if (seen.has(key)) throw new SyntaxError(`${where}: ${scenario} is listed twice under ${name}`);
    seen.add(key);
    entries.push({ ...leg, scenario, waitsFor });
  }
  return entries;
}

/** The entries of `expected` that belong to `leg`. */
export function entriesOf(leg: Leg, expected: readonly ExpectedFailure[]): ExpectedFailure[] {
  return expected.filter((e) => e.role === leg.role && e.revision === leg.revision);
}

/** Judges one leg's run against the baseline; entries of other legs play no part. */
export function judge(
  leg: Leg,
  outcomes: readonly ScenarioOutcome[],
  expected: readonly ExpectedFailure[],
): Verdict {
  const mine = entriesOf(leg, expected);
  const listed = new Set(mine.map((e) => e.scenario));
  const run = new Set(outcomes.map((o) => o.scenario));
  const unexpectedFailures = outcomes.filter((o) => o.status !== "PASSED" && !listed.has(o.scenario));
  const stalePasses = outcomes.filter((o) => o.status === "PASSED" && listed.has(o.scenario));
  const unknownEntries = mine.filter((e) => !run.has(e.scenario));
  return {
    unexpectedFailures,
    stalePasses,
    unknownEntries,
    ok: unexpectedFailures.length === 0 && stalePasses.length === 0 && unknownEntries.length === 0,
  };
}

/**
 * Outcomes in which a scenario that passed without one successful check (every check skipped: the
 * extension was not declared, the client never listed) counts as not measured: for scenarios that
 * must run real checks, such as the extension scenarios no requirement set lists.
 */
export function requireRealChecks(outcomes: readonly ScenarioOutcome[]): ScenarioOutcome[] {
  return outcomes.map((o) =>
    o.status === "PASSED" && (o.success ?? 0) === 0 ? { ...o, status: "NOT_MEASURED" as const } : o,
  );
}
