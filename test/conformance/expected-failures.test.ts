import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type ExpectedFailure,
  judge,
  parseExpectedFailures,
  requireRealChecks,
  type ScenarioOutcome,
} from "./expected-failures.js";

/** The legs `npm run conformance` runs. */
const LEGS = ["server@2026-07-28", "server@2025-11-25", "client@2026-07-28", "client@2025-11-25"];

const SAMPLE = `# header comment
server@2026-07-28:
  - tasks-lifecycle  # waits for: the tasks extension

server@2025-11-25:  # the handshake era
  - tasks-lifecycle  # waits for: the tasks extension at that revision

client@2026-07-28:
  # a comment inside a section
  - auth/metadata-default # waits for: OAuth in the client
`;

describe("parseExpectedFailures", () => {
  it("reads scenarios per leg (role and revision) with the capability each waits for", () => {
    expect(parseExpectedFailures(SAMPLE)).toEqual([
      {
        role: "server",
        revision: "2026-07-28",
        scenario: "tasks-lifecycle",
        waitsFor: "the tasks extension",
      },
      {
        role: "server",
        revision: "2025-11-25",
        scenario: "tasks-lifecycle",
        waitsFor: "the tasks extension at that revision",
      },
      {
        role: "client",
        revision: "2026-07-28",
        scenario: "auth/metadata-default",
        waitsFor: "OAuth in the client",
      },
    ]);
  });

  it.each([
    [
      "an entry without the capability it waits for",
      "server@2026-07-28:\n  - tasks-lifecycle\n",
      /waits for/,
    ],
    ["an entry before any section", "  - tasks-lifecycle  # waits for: x\n", /before any/],
    ["a section without its revision", "server:\n  - tasks-lifecycle  # waits for: x\n", /expected/],
    ["a malformed revision", "server@2025:\n  - tasks-lifecycle  # waits for: x\n", /expected/],
    ["a per-check entry", "server@2026-07-28:\n  - caching:sep-2549-ttl  # waits for: x\n", /expected/],
    ["a YAML mapping", "server@2026-07-28:\n  - caching: x\n", /expected/],
    [
      "a duplicate within a leg",
      "client@2026-07-28:\n  - a  # waits for: x\n  - a  # waits for: y\n",
      /listed twice under client@2026-07-28/,
    ],
    ["an unknown section", "tasks@2026-07-28:\n  - a  # waits for: x\n", /expected/],
  ])("refuses %s", (_what, text, message) => {
    expect(() => parseExpectedFailures(text)).toThrow(message);
  });

  it("accepts the checked-in list, which has a section for every leg (empty when a leg has no known failure)", () => {
    const text = readFileSync(new URL("./expected-failures.yaml", import.meta.url), "utf8");
    const entries = parseExpectedFailures(text);
    for (const leg of LEGS) expect(text, leg).toMatch(new RegExp(`^${leg}:$`, "m"));
    expect(entries.every((e) => e.waitsFor.length > 0)).toBe(true);
    const legs = new Set(entries.map((e) => `${e.role}@${e.revision}`));
    expect([...legs].every((leg) => LEGS.includes(leg))).toBe(true);
  });
});

describe("judge", () => {
  const client = { role: "client", revision: "2026-07-28" } as const;
  const server = { role: "server", revision: "2026-07-28" } as const;
  const legacyServer = { role: "server", revision: "2025-11-25" } as const;
  const expected: ExpectedFailure[] = [
    { ...client, scenario: "auth/a", waitsFor: "OAuth" },
    { ...client, scenario: "auth/b", waitsFor: "OAuth" },
    { ...server, scenario: "tasks-x", waitsFor: "tasks" },
    { ...legacyServer, scenario: "tasks-y", waitsFor: "tasks" },
  ];
  const outcome = (scenario: string, status: ScenarioOutcome["status"]): ScenarioOutcome => ({
    scenario,
    scored: true,
    status,
  });

  it("passes a run whose only failures are listed", () => {
    const verdict = judge(
      client,
      [outcome("tools_call", "PASSED"), outcome("auth/a", "FAILED"), outcome("auth/b", "NOT_MEASURED")],
      expected,
    );
    expect(verdict.ok).toBe(true);
  });

  it("fails a run with a failure that is not listed", () => {
    const verdict = judge(
      client,
      [outcome("tools_call", "FAILED"), outcome("auth/a", "FAILED"), outcome("auth/b", "FAILED")],
      expected,
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.unexpectedFailures.map((o) => o.scenario)).toEqual(["tools_call"]);
  });

  it("fails a run where a listed scenario started passing, until its entry is removed", () => {
    const verdict = judge(client, [outcome("auth/a", "PASSED"), outcome("auth/b", "FAILED")], expected);
    expect(verdict.ok).toBe(false);
    expect(verdict.stalePasses.map((o) => o.scenario)).toEqual(["auth/a"]);
  });

  it("fails a run that never ran a listed scenario of its leg", () => {
    const verdict = judge(client, [outcome("auth/a", "FAILED")], expected);
    expect(verdict.unknownEntries.map((e) => e.scenario)).toEqual(["auth/b"]);
    expect(judge(server, [outcome("tasks-x", "FAILED")], expected).ok).toBe(true);
  });

  it("judges each revision of a role against its own section", () => {
    expect(judge(legacyServer, [outcome("tasks-y", "FAILED")], expected).ok).toBe(true);
    const crossed = judge(
      legacyServer,
      [outcome("tasks-x", "FAILED"), outcome("tasks-y", "FAILED")],
      expected,
    );
    expect(crossed.unexpectedFailures.map((o) => o.scenario)).toEqual(["tasks-x"]);
    expect(judge(server, [outcome("tasks-x", "FAILED"), outcome("tasks-y", "PASSED")], expected).ok).toBe(
      true,
    );
  });
});

describe("requireRealChecks", () => {
  it("counts a pass without one successful check (all skipped) as not measured, and keeps the rest", () => {
    const outcomes: ScenarioOutcome[] = [
      { scenario: "sep-2640-client-verify-digest", scored: false, status: "PASSED", success: 0 },
      { scenario: "sep-2640-skills-manifest", scored: false, status: "PASSED", success: 6 },
      { scenario: "sep-2640-skills-directory", scored: false, status: "FAILED", success: 0 },
      { scenario: "sep-2640-client-verify-size", scored: false, status: "NOT_MEASURED" },
    ];
    expect(requireRealChecks(outcomes).map((o) => o.status)).toEqual([
      "NOT_MEASURED",
      "PASSED",
      "FAILED",
      "NOT_MEASURED",
    ]);
    const leg = { role: "client", revision: "2026-07-28" } as const;
    expect(judge(leg, requireRealChecks(outcomes), []).unexpectedFailures.map((o) => o.scenario)).toEqual([
      "sep-2640-client-verify-digest",
      "sep-2640-skills-directory",
      "sep-2640-client-verify-size",
    ]);
  });
});
