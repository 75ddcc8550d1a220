import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type ExpectedFailure,
  judge,
  parseExpectedFailures,
  type ScenarioOutcome,
} from "./expected-failures.js";

const SAMPLE = `# header comment
server:
  - tasks-lifecycle  # waits for: the tasks extension

client:
  # a comment inside a section
  - auth/metadata-default # waits for: OAuth in the client
`;

describe("parseExpectedFailures", () => {
  it("reads scenarios per role with the capability each waits for", () => {
    expect(parseExpectedFailures(SAMPLE)).toEqual([
      { role: "server", scenario: "tasks-lifecycle", waitsFor: "the tasks extension" },
      { role: "client", scenario: "auth/metadata-default", waitsFor: "OAuth in the client" },
    ]);
  });

  it.each([
    ["an entry without the capability it waits for", "server:\n  - tasks-lifecycle\n", /waits for/],
    ["an entry before any section", "  - tasks-lifecycle  # waits for: x\n", /before any/],
    ["a per-check entry", "server:\n  - caching:sep-2549-ttl  # waits for: x\n", /expected/],
    ["a YAML mapping", "server:\n  - caching: x\n", /expected/],
    ["a duplicate", "client:\n  - a  # waits for: x\n  - a  # waits for: y\n", /listed twice/],
    ["an unknown section", "tasks:\n  - a  # waits for: x\n", /expected/],
  ])("refuses %s", (_what, text, message) => {
    expect(() => parseExpectedFailures(text)).toThrow(message);
  });

  it("accepts the checked-in list", () => {
    const text = readFileSync(new URL("./expected-failures.yaml", import.meta.url), "utf8");
    const entries = parseExpectedFailures(text);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.waitsFor.length > 0)).toBe(true);
  });
});

describe("judge", () => {
  const expected: ExpectedFailure[] = [
    { role: "client", scenario: "auth/a", waitsFor: "OAuth" },
    { role: "client", scenario: "auth/b", waitsFor: "OAuth" },
    { role: "server", scenario: "tasks-x", waitsFor: "tasks" },
  ];
  const outcome = (scenario: string, status: ScenarioOutcome["status"]): ScenarioOutcome => ({
    scenario,
    scored: true,
    status,
  });

  it("passes a run whose only failures are listed", () => {
    const verdict = judge(
      "client",
      [outcome("tools_call", "PASSED"), outcome("auth/a", "FAILED"), outcome("auth/b", "NOT_MEASURED")],
      expected,
    );
    expect(verdict.ok).toBe(true);
  });

  it("fails a run with a failure that is not listed", () => {
    const verdict = judge(
      "client",
      [outcome("tools_call", "FAILED"), outcome("auth/a", "FAILED"), outcome("auth/b", "FAILED")],
      expected,
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.unexpectedFailures.map((o) => o.scenario)).toEqual(["tools_call"]);
  });

  it("fails a run where a listed scenario started passing, until its entry is removed", () => {
    const verdict = judge("client", [outcome("auth/a", "PASSED"), outcome("auth/b", "FAILED")], expected);
    expect(verdict.ok).toBe(false);
    expect(verdict.stalePasses.map((o) => o.scenario)).toEqual(["auth/a"]);
  });

  it("fails a run that never ran a listed scenario of its role", () => {
    const verdict = judge("client", [outcome("auth/a", "FAILED")], expected);
    expect(verdict.unknownEntries.map((e) => e.scenario)).toEqual(["auth/b"]);
    expect(judge("server", [outcome("tasks-x", "FAILED")], expected).ok).toBe(true);
  });
});
