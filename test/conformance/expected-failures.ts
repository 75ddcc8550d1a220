/**
 * The conformance baseline: which scenarios are known not to pass yet, and the verdict of a run
 * against it. The list is a YAML file in the suite's own `--expected-failures` format (`server:` and
 * `client:` lists of scenario names), restricted to what this reader accepts: every entry names a
 * whole scenario and carries a `# waits for: <capability>` comment.
 *
 * A run passes when every scenario that did not pass is on the list, and no scenario on the list
 * passed (a fix must remove its entry, so the list never hides a regression).
 */

/** The roles the suite runs. */
export type Role = "server" | "client";

/** One known failure: the scenario and the capability it waits for. */
export interface ExpectedFailure {
  readonly role: Role;
  readonly scenario: string;
  readonly waitsFor: string;
}

/** One scenario of a run, as `run-conformance.sh` writes it in `summary.json`. */
export interface ScenarioOutcome {
  readonly scenario: string;
  readonly scored: boolean;
  readonly status: "PASSED" | "FAILED" | "NOT_MEASURED";
}

/** What a run says against the baseline. */
export interface Verdict {
  /** Failed (or never measured) and not on the list: regressions. */
  readonly unexpectedFailures: readonly ScenarioOutcome[];
  /** On the list but passed: the entry must be removed. */
  readonly stalePasses: readonly ScenarioOutcome[];
  /** On the list for this role but not part of the run: a typo or a renamed scenario. */
  readonly unknownEntries: readonly ExpectedFailure[];
  /** True when all three lists are empty. */
  readonly ok: boolean;
}

const SECTION = /^(server|client):\s*(?:#.*)?$/;
const ENTRY = /^\s+-\s+([^\s#:]+)\s*(?:#\s*(.*))?$/;
const WAITS_FOR = /^waits for:\s*(\S.*)$/;

/**
 * Reads an expected-failures file.
 *
 * @throws SyntaxError naming the line for anything outside the accepted shape: an entry outside a
 *   section, a per-check entry (`scenario:check`), a missing `# waits for:` comment, a duplicate.
 */
export function parseExpectedFailures(text: string): ExpectedFailure[] {
  const entries: ExpectedFailure[] = [];
  const seen = new Set<string>();
  let role: Role | undefined;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const where = `expected-failures line ${index + 1}`;
    const line = raw.replace(/\s+$/, "");
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const section = SECTION.exec(line);
    if (section !== null) {
      role = section[1] as Role;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry === null) {
      throw new SyntaxError(
        `${where}: expected "server:", "client:" or "  - <scenario>  # waits for: <capability>", got ${JSON.stringify(raw)}`,
      );
    }
    if (role === undefined)
      throw new SyntaxError(`${where}: an entry before any "server:" or "client:" section`);
    const scenario = entry[1] as string;
    const waitsFor = WAITS_FOR.exec(entry[2]?.trim() ?? "")?.[1];
    if (waitsFor === undefined) {
      throw new SyntaxError(`${where}: ${scenario} needs a "# waits for: <capability>" comment`);
    }
    const key = `${role}/${scenario}`;
    if (seen.has(key)) throw new SyntaxError(`${where}: ${scenario} is listed twice under ${role}`);
    seen.add(key);
    entries.push({ role, scenario, waitsFor });
  }
  return entries;
}

/** Judges one role's run against the baseline. */
export function judge(
  role: Role,
  outcomes: readonly ScenarioOutcome[],
  expected: readonly ExpectedFailure[],
): Verdict {
  const listed = new Set(expected.filter((e) => e.role === role).map((e) => e.scenario));
  const run = new Set(outcomes.map((o) => o.scenario));
  const unexpectedFailures = outcomes.filter((o) => o.status !== "PASSED" && !listed.has(o.scenario));
  const stalePasses = outcomes.filter((o) => o.status === "PASSED" && listed.has(o.scenario));
  const unknownEntries = expected.filter((e) => e.role === role && !run.has(e.scenario));
  return {
    unexpectedFailures,
    stalePasses,
    unknownEntries,
    ok: unexpectedFailures.length === 0 && stalePasses.length === 0 && unknownEntries.length === 0,
  };
}
